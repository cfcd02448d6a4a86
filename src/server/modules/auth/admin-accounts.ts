import { eq, sql } from 'drizzle-orm';
import { registerSchema } from '../../../contracts/user';
import type { Db } from '../../db/client';
import { carts, users } from '../../db/schema';
import { BadRequest } from '../../lib/errors';
import { hashPassword } from './passwords';

/**
 * Creates an admin, or (with `promoteExisting`) makes the account with that e-mail an admin with the
 * given password. `npm run admin:create` promotes; ADMIN_EMAIL/ADMIN_PASSWORD on start only create,
 * so a password changed later is not reset by the next start.
 */
export async function ensureAdmin(
  db: Db,
  input: { email: string; password: string },
  options: { promoteExisting: boolean },
): Promise<'created' | 'promoted' | 'unchanged'> {
  const parsed = registerSchema.pick({ email: true, password: true }).safeParse(input);
  if (!parsed.success) throw new BadRequest(parsed.error.issues.map((i) => i.message).join('; '));
  const { email, password } = parsed.data;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email));
  if (existing && !options.promoteExisting) return 'unchanged';
  const passwordHash = await hashPassword(password);
  if (existing) {
    await db.update(users).set({ isAdmin: true, passwordHash, updatedAt: sql`now()` }).where(eq(users.id, existing.id));
    return 'promoted';
  }
  const base = email.split('@')[0]!.replace(/[^\p{L}\p{N}._-]/gu, '').slice(0, 30) || 'admin';
  await db.transaction(async (tx) => {
    const taken = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.username})`, base.toLowerCase()));
    const username = taken.length ? `${base}-admin` : base;
    const [user] = await tx
      .insert(users)
      .values({ username, email, passwordHash, firstName: 'Shop', lastName: 'Admin', isAdmin: true })
      .returning({ id: users.id });
    await tx.insert(carts).values({ userId: user!.id });
  });
  return 'created';
}
