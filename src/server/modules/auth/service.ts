import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from '../../../contracts/user';
import type { AppConfig } from '../../config';
import type { Db } from '../../db/client';
import { carts, passwordResetTokens, users } from '../../db/schema';
import { Conflict, Unauthorized, fieldError, isUniqueViolation } from '../../lib/errors';
import { composeMail } from '../../lib/mail-layout';
import { queueMail } from '../../lib/mail-outbox';
import type { RateLimiter } from '../../lib/rate-limit';
import { hashToken, newToken } from '../../lib/tokens';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';
import type { SessionStore } from './sessions';
import type { UserRow } from './user-view';

const resetTokenLifetimeMs = 60 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

export const forgotPasswordAnswer =
  'If this email is registered with us, instructions to reset your password will be sent shortly.';

export interface AuthDeps {
  db: Db;
  config: AppConfig;
  limiter: RateLimiter;
  sessions: SessionStore;
  /** Where links in e-mails point (PUBLIC_URL, or this server on localhost). */
  publicUrl: string;
}

export async function registerUser(deps: AuthDeps, input: z.output<typeof registerSchema>, ip: string): Promise<UserRow> {
  await deps.limiter.consume(
    { key: `register:ip:${ip}`, max: deps.config.limits.registrationsPerIpPerHour, windowMs: hourMs },
    'Too many new accounts from this network. Please try again in an hour.',
  );
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          phone: input.phone,
          address: input.address,
          city: input.city,
          postalCode: input.postalCode,
          region: input.region,
        })
        .returning();
      await tx.insert(carts).values({ userId: user!.id });
      return user!;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_lower_key')) {
      throw new Conflict('An account with this email already exists. Try signing in instead.', {
        email: 'An account with this email already exists',
      });
    }
    if (isUniqueViolation(error, 'users_username_lower_key')) {
      throw new Conflict('This username is already taken. Please choose another.', {
        username: 'This username is already taken',
      });
    }
    throw error;
  }
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase())).limit(1);
  return rows[0];
}

/**
 * Failed sign-ins are limited per account and per IP (many shoppers can share one IP). Each attempt
 * is counted before its password is hashed, so parallel guesses cannot all slip under the limit;
 * a successful sign-in is given back.
 */
export async function logIn(deps: AuthDeps, input: z.output<typeof loginSchema>, ip: string): Promise<UserRow> {
  const { limits } = deps.config;
  const counted = [
    { key: `login-fail:account:${input.email.toLowerCase()}`, max: limits.loginFailsPerAccount, windowMs: limits.loginWindowMs },
    { key: `login-fail:ip:${ip}`, max: limits.loginFailsPerIp, windowMs: limits.loginWindowMs },
  ];
  const minutes = Math.round(limits.loginWindowMs / 60000);
  await deps.limiter.attempt(counted, `Too many failed sign-in attempts. Please wait ${minutes} minutes and try again, or reset your password.`);

  const user = await findUserByEmail(deps.db, input.email);
  const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
  if (!user || !valid) throw new Unauthorized('Invalid email or password');
  await deps.limiter.forgive(counted);
  return user;
}

export async function requestPasswordReset(deps: AuthDeps, input: z.output<typeof forgotPasswordSchema>, ip: string): Promise<void> {
  const message = 'Too many password reset requests. Please try again in an hour.';
  await deps.limiter.consume({ key: `forgot:email:${input.email}`, max: deps.config.limits.forgotPasswordPerEmailPerHour, windowMs: hourMs }, message);
  await deps.limiter.consume({ key: `forgot:ip:${ip}`, max: deps.config.limits.forgotPasswordPerIpPerHour, windowMs: hourMs }, message);
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) return;
  const token = newToken();
  const link = `${deps.publicUrl}/reset-password?token=${token}`;
  const expiresAt = new Date(Date.now() + resetTokenLifetimeMs);
  // The token and its mail are kept together; the outbox sends the mail, so a known address
  // answers as fast as an unknown one (ARCHITECTURE difference 6). A mail still unsent when the
  // link expires is given up rather than retried.
  await deps.db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({ userId: user.id, tokenHash: hashToken(token), expiresAt });
    const mail = composeMail({
      to: user.email,
      subject: 'Reset your Mango Shop password',
      preview: 'Choose a new password within the next hour.',
      greeting: `Kia ora ${user.firstName},`,
      parts: [
        'Someone (hopefully you) asked to reset the password of your Mango Shop account.',
        '',
        { kind: 'button', label: 'Choose a new password here within the next hour', href: link },
        'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
      ],
      siteName: 'Mango Shop',
    });
    await queueMail(tx, mail, { expiresAt });
  });
}

/**
 * Tokens are single-use and expire after an hour; redeeming one signs out every session. Requests
 * are limited per IP, and the token is looked up (a cheap SHA-256) before the new password is
 * hashed, so made-up tokens cost no hashing.
 */
export async function resetPassword(deps: AuthDeps, input: z.output<typeof resetPasswordSchema>, ip: string): Promise<void> {
  await deps.limiter.consume(
    { key: `reset:ip:${ip}`, max: deps.config.limits.resetPasswordPerIpPerHour, windowMs: hourMs },
    'Too many password reset attempts. Please try again in an hour.',
  );
  const tokenHash = hashToken(input.token);
  const live = and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, sql`now()`));
  const [found] = await deps.db.select({ id: passwordResetTokens.id }).from(passwordResetTokens).where(live);
  if (!found) throw invalidResetLink();
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.db.transaction(async (tx) => {
    // Redeemed under the row's lock: of two requests with one token, one wins.
    const [redeemed] = await tx.update(passwordResetTokens).set({ usedAt: sql`now()` }).where(live).returning({ userId: passwordResetTokens.userId });
    if (!redeemed) return null;
    // The link came by mail: the account reads its address.
    await tx.update(users).set({ passwordHash, emailProvenAt: sql`coalesce(${users.emailProvenAt}, now())`, updatedAt: sql`now()` }).where(eq(users.id, redeemed.userId));
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, redeemed.userId), isNull(passwordResetTokens.usedAt)));
    return redeemed.userId;
  });
  if (userId === null) throw invalidResetLink();
  await deps.sessions.destroyAllFor(userId);
}

function invalidResetLink() {
  return fieldError('token', 'This reset link is invalid or has expired. Please ask for a new one.');
}
