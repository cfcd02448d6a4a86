import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, passwordResetTokens } from '../../db/schema';
import { as, createTestShop, registerAndSignIn, sessionCookie, shopperDefaults, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop({ LOGIN_FAILS_PER_ACCOUNT: '3', FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: '2' });
});
afterAll(async () => shop?.close());

const register = (payload: Record<string, unknown>) => shop.app.inject({ method: 'POST', url: '/api/register', payload });
const login = (email: string, password: string) => shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('POST /api/register', () => {
  it('creates an account and answers the spec user object without a password', async () => {
    const response = await register({ ...shopperDefaults, username: 'tane', email: 'Tane@Example.NZ' });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({ username: 'tane', email: 'tane@example.nz', firstName: 'Aroha', isAdmin: false, city: '' });
    expect(Object.keys(user).sort()).toEqual(
      ['address', 'city', 'email', 'firstName', 'id', 'isAdmin', 'lastName', 'phone', 'postalCode', 'region', 'username'].sort(),
    );
  });

  it('ignores isAdmin and unknown fields in a registration', async () => {
    const response = await register({ ...shopperDefaults, username: 'sneaky', email: 'sneaky@example.nz', isAdmin: true, role: 'admin' });
    expect(response.statusCode).toBe(201);
    expect(response.json().isAdmin).toBe(false);
  });

  it.each([
    ['username', 'ab', 'Username must be at least 3 characters'],
    ['username', '   abc   '.replace('abc', 'a'), 'Username must be at least 3 characters'],
    ['email', 'a@b', 'Email address is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['password', '12345', 'Password must be at least 6 characters'],
    ['firstName', 'A', 'First name is required'],
    ['lastName', '', 'Last name is required'],
    ['phone', '0211', 'Phone number is required'],
    ['phone', '1212345678', 'Must be a valid NZ mobile number format'],
    ['phone', '01 234 5678', 'Must be a valid NZ mobile number format'],
    ['address', '12 A', 'Home address is required'],
  ])('rejects %s %j with the spec message', async (field, value, message) => {
    const response = await register({ ...shopperDefaults, email: 'fields@example.nz', username: 'fields', [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors[field]).toBe(message);
  });

  it('reports a missing field by its own message', async () => {
    const { firstName: _omitted, ...withoutFirstName } = shopperDefaults;
    const response = await register({ ...withoutFirstName, email: 'missing@example.nz', username: 'missing' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.firstName).toBe('First name is required');
  });

  it('answers 409 for an e-mail already registered, whatever its case', async () => {
    await register({ ...shopperDefaults, username: 'first', email: 'dup@example.nz' });
    const response = await register({ ...shopperDefaults, username: 'second', email: 'DUP@example.nz' });
    expect(response.statusCode).toBe(409);
    expect(response.json().fieldErrors.email).toMatch(/already exists/);
  });

  it('answers 409 for a username already taken', async () => {
    await register({ ...shopperDefaults, username: 'kiwi', email: 'kiwi1@example.nz' });
    const response = await register({ ...shopperDefaults, username: 'KIWI', email: 'kiwi2@example.nz' });
    expect(response.statusCode).toBe(409);
    expect(response.json().fieldErrors.username).toMatch(/taken/);
  });

  it('refuses very long strings with a field message', async () => {
    const response = await register({ ...shopperDefaults, username: 'long', email: 'long@example.nz', address: 'x'.repeat(5000) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.address).toBe('Must be at most 200 characters');
  });
});

describe('POST /api/login and the session', () => {
  it('signs in, answers the user, and GET /api/me knows who it is', async () => {
    const { cookie, details } = await registerAndSignIn(shop.app, { username: 'mere', email: 'mere@example.nz' });
    const me = await as(shop.app, cookie)({ method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'mere', email: details.email });
  });

  it('sets an HttpOnly SameSite=Lax cookie and a new session id at every sign-in', async () => {
    await register({ ...shopperDefaults, username: 'rangi', email: 'rangi@example.nz' });
    const first = await login('rangi@example.nz', shopperDefaults.password);
    const second = await login('RANGI@example.nz', shopperDefaults.password);
    const cookie = first.cookies.find((c) => c.name === 'mango_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(sessionCookie(first)).not.toBe(sessionCookie(second));
  });

  it('answers 401 with the same message for a wrong password and an unknown e-mail', async () => {
    const wrong = await login('mere@example.nz', 'not-the-password');
    const unknown = await login('nobody@example.nz', 'whatever1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('applies the spec login rules before looking anyone up', async () => {
    const response = await login('mere@example.nz', '123');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.password).toBe('Password must be at least 6 characters');
  });

  it('logs out: the session ends on the server', async () => {
    const { cookie } = await registerAndSignIn(shop.app, { username: 'hemi', email: 'hemi@example.nz' });
    const out = await as(shop.app, cookie)({ method: 'POST', url: '/api/logout' });
    expect(out.statusCode).toBe(200);
    const me = await as(shop.app, cookie)({ method: 'GET', url: '/api/me' });
    expect(me.statusCode).toBe(401);
  });

  it('answers 401 to GET /api/me without a session or with a forged one', async () => {
    expect((await shop.app.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const forged = await as(shop.app, 'mango_session=' + 'a'.repeat(43))({ method: 'GET', url: '/api/me' });
    expect(forged.statusCode).toBe(401);
  });

  it('stops a brute force on one account with 429 and a readable message', async () => {
    await register({ ...shopperDefaults, username: 'target', email: 'target@example.nz' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login('target@example.nz', `guess-${attempt}`)).statusCode).toBe(401);
    }
    const blocked = await login('target@example.nz', shopperDefaults.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('forgot and reset password', () => {
  const resetLink = (text: string) => /reset-password\?token=([\w-]+)/.exec(text)?.[1];

  it('answers the same for a known and an unknown e-mail, and mails only the known one', async () => {
    await register({ ...shopperDefaults, username: 'moana', email: 'moana@example.nz' });
    const before = (await shop.mail()).length;
    const known = await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: ' Moana@Example.nz ' } });
    const unknown = await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'ghost@example.nz' } });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await shop.mail()).length).toBe(before + 1);
    expect((await shop.mail()).at(-1)!.to).toBe('moana@example.nz');
  });

  it('resets with the mailed token once, and refuses the token a second time', async () => {
    await register({ ...shopperDefaults, username: 'wiremu', email: 'wiremu@example.nz' });
    const { cookie } = await registerAndSignIn(shop.app, { username: 'wiremu2', email: 'wiremu2@example.nz' });
    await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'wiremu2@example.nz' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const token = resetLink((await shop.mail()).at(-1)!.text)!;
    expect(token).toBeTruthy();
    const reset = await shop.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'new-secret-9' } });
    expect(reset.statusCode).toBe(200);
    expect((await as(shop.app, cookie)({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    expect((await login('wiremu2@example.nz', 'new-secret-9')).statusCode).toBe(200);
    const again = await shop.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'another-pass-1' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().fieldErrors.token).toMatch(/invalid or has expired/);
  });

  it('refuses an expired token', async () => {
    await register({ ...shopperDefaults, username: 'expired', email: 'expired@example.nz' });
    await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'expired@example.nz' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const token = resetLink((await shop.mail()).at(-1)!.text)!;
    await shop.database.db.execute(`update password_reset_tokens set expires_at = now() - interval '1 minute'`);
    const response = await shop.app.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: 'new-secret-9' } });
    expect(response.statusCode).toBe(400);
  });

  it('keeps no reset link in the outbox once the mail is sent, only what support needs', async () => {
    await register({ ...shopperDefaults, username: 'hemi', email: 'hemi@example.nz' });
    await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'hemi@example.nz' } });
    const token = resetLink((await shop.mail()).at(-1)!.text)!;
    const [row] = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'hemi@example.nz'));
    expect(row).toMatchObject({ subject: 'Reset your Mango Shop password', attempts: 1, textBody: '', htmlBody: null, headers: {} });
    expect(row!.sentAt).not.toBeNull();
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('gives up a reset mail that could not be sent before its link expired, and sends nothing', async () => {
    await register({ ...shopperDefaults, username: 'rawiri', email: 'rawiri@example.nz' });
    await shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'rawiri@example.nz' } });
    const toRawiri = eq(mailOutbox.toAddress, 'rawiri@example.nz');
    const [queued] = await shop.database.db.select().from(mailOutbox).where(toRawiri);
    const [token] = await shop.database.db.select().from(passwordResetTokens).orderBy(desc(passwordResetTokens.id)).limit(1);
    expect(queued!.expiresAt).toEqual(token!.expiresAt);
    // The mail server was down for the link's hour: the mail waited for a retry until after it expired.
    await shop.database.db.update(mailOutbox).set({ expiresAt: sql`now() - interval '1 minute'` }).where(toRawiri);
    expect((await shop.mail()).filter((mail) => mail.to === 'rawiri@example.nz')).toEqual([]);
    const [row] = await shop.database.db.select().from(mailOutbox).where(toRawiri);
    expect(row).toMatchObject({ sentAt: null, attempts: 0, textBody: '', htmlBody: null, lastError: 'the mail expired before it could be sent' });
    expect(row!.failedAt).not.toBeNull();
  });

  it('limits requests per e-mail with 429', async () => {
    const ask = () => shop.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: 'flood@example.nz' } });
    expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(200);
    const blocked = await ask();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many password reset requests/);
  });
});
