import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rateLimitAddress } from '../../lib/client-address';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from '../../../contracts/user';
import { clearSessionCookie, requireUser, setSessionCookie } from './request-user';
import { forgotPasswordAnswer, logIn, registerUser, requestPasswordReset, resetPassword, type AuthDeps } from './service';
import { sessionCookieName } from './sessions';
import { toUser } from './user-view';

export function authRoutes(deps: AuthDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/api/register', { schema: { body: registerSchema } }, async (request, reply) => {
      const user = await registerUser(deps, request.body, rateLimitAddress(request.ip));
      return reply.code(201).send(toUser(user));
    });

    app.post('/api/login', { schema: { body: loginSchema } }, async (request, reply) => {
      const user = await logIn(deps, request.body, rateLimitAddress(request.ip));
      // A new session id at every sign-in; the one the browser had (if any) ends.
      const previous = request.cookies[sessionCookieName];
      if (previous) await deps.sessions.destroy(previous);
      const session = await deps.sessions.create(user.id);
      setSessionCookie(request, reply, session.token, session.expiresAt);
      return toUser(user);
    });

    app.post('/api/logout', async (request, reply) => {
      const token = request.cookies[sessionCookieName];
      if (token) await deps.sessions.destroy(token);
      clearSessionCookie(request, reply);
      return { message: 'You have been successfully logged out' };
    });

    app.get('/api/me', async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return toUser(user);
    });

    app.post('/api/forgot-password', { schema: { body: forgotPasswordSchema } }, async (request) => {
      await requestPasswordReset(deps, request.body, rateLimitAddress(request.ip));
      return { message: forgotPasswordAnswer };
    });

    app.post('/api/reset-password', { schema: { body: resetPasswordSchema } }, async (request) => {
      await resetPassword(deps, request.body, rateLimitAddress(request.ip));
      return { message: 'Your password has been changed. You can now sign in with your new password.' };
    });
  };
}
