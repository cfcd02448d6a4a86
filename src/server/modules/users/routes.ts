import { asc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { adminOnly } from '../auth/request-user';
import { toUser } from '../auth/user-view';

/** Spec 7's GET /api/users, behind an admin session (ARCHITECTURE difference 1). */
export function userRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/users', { onRequest: adminOnly }, async () => {
      const rows = await db.select().from(users).orderBy(asc(users.id));
      return rows.map(toUser);
    });
  };
}
