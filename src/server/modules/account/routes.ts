import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordSchema, profileSchema, type ReminderSettings, reminderSettingsSchema } from '../../../contracts/user';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/client';
import { reviews, sessions, users } from '../../db/schema';
import type { CacheBus } from '../../lib/cache-bus';
import { cacheTags } from '../../lib/shared-cache';
import { fieldError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { hashToken } from '../../lib/tokens';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { requireUser, signedInOnly } from '../auth/request-user';
import { sessionCookieName } from '../auth/sessions';
import { toUser } from '../auth/user-view';

/** The shopper's own profile and password, edited on /account. */
export function accountRoutes(deps: { db: Db; limiter: RateLimiter; config: AppConfig; bus: CacheBus }): FastifyPluginAsyncZod {
  const { db, limiter } = deps;
  return async (app) => {
    app.put('/api/account/profile', { onRequest: signedInOnly, schema: { body: profileSchema } }, async (request) => {
      const user = await requireUser(request);
      const [updated] = await db
        .update(users)
        .set({ ...request.body, updatedAt: sql`now()` })
        .where(eq(users.id, user.id))
        .returning();
      // Reviews name their writer ("Priya S."): the pages of the products they reviewed change with the name.
      if (updated!.firstName !== user.firstName || updated!.lastName !== user.lastName) {
        const reviewed = await db.selectDistinct({ productId: reviews.productId }).from(reviews).where(eq(reviews.userId, user.id));
        if (reviewed.length) await deps.bus.publish('reviews', reviewed.map((row) => cacheTags.product(row.productId)));
      }
      return toUser(updated!);
    });

    /**
     * Whether the shopper gets the "your mangoes should be ready" e-mail on an order's first ready
     * day, and the "How were your mangoes?" e-mail a few days later.
     */
    const choices = async (userId: number): Promise<ReminderSettings> => {
      const [row] = await db.select({ readyOff: users.readyMailOffAt, reviewOff: users.reviewMailOffAt }).from(users).where(eq(users.id, userId));
      return { ripenessReminders: !row?.readyOff, reviewRequests: !row?.reviewOff };
    };
    const offWhen = (on: boolean | undefined, column: typeof users.readyMailOffAt | typeof users.reviewMailOffAt) => (on === undefined ? column : on ? null : sql`coalesce(${column}, now())`);

    app.get('/api/account/reminders', { onRequest: signedInOnly }, async (request, reply): Promise<ReminderSettings> => {
      reply.header('cache-control', 'no-store');
      return choices((await requireUser(request)).id);
    });

    app.put('/api/account/reminders', { onRequest: signedInOnly, schema: { body: reminderSettingsSchema } }, async (request): Promise<ReminderSettings> => {
      const user = await requireUser(request);
      const { ripenessReminders, reviewRequests } = request.body;
      await db
        .update(users)
        .set({ readyMailOffAt: offWhen(ripenessReminders, users.readyMailOffAt), reviewMailOffAt: offWhen(reviewRequests, users.reviewMailOffAt), updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
      return choices(user.id);
    });

    /** Needs the current password; every other session of the account is signed out. */
    app.put('/api/account/password', { onRequest: signedInOnly, schema: { body: changePasswordSchema } }, async (request) => {
      const user = await requireUser(request);
      const { limits } = deps.config;
      // Counted before the check, like sign-in: parallel guesses cannot all slip under the limit.
      const failures = [{ key: `password-change-fail:${user.id}`, max: limits.loginFailsPerAccount, windowMs: limits.loginWindowMs }];
      await limiter.attempt(failures, 'Too many wrong passwords. Please wait a while and try again.');
      if (!(await verifyPassword(user.passwordHash, request.body.currentPassword))) {
        throw fieldError('currentPassword', 'Your current password is not correct');
      }
      await limiter.forgive(failures);
      const passwordHash = await hashPassword(request.body.newPassword);
      const keep = hashToken(request.cookies[sessionCookieName] ?? '');
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.id, user.id));
        await tx.delete(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.idHash, keep)));
      });
      return { message: 'Your password has been changed.' };
    });
  };
}
