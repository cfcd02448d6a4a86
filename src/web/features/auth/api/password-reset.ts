import { apiRequest } from '../../../lib/api-client';

/** POST /api/forgot-password with the e-mail trimmed and lower-cased (spec 5). */
export const postForgotPassword = (email: string) =>
  apiRequest<{ message: string }>('/api/forgot-password', { method: 'POST', body: { email: email.trim().toLowerCase() } });

/** POST /api/reset-password: redeems the token mailed by forgot password. */
export const postResetPassword = (token: string, password: string) =>
  apiRequest<{ message: string }>('/api/reset-password', { method: 'POST', body: { token, password } });
