import type { z } from 'zod';
import type { loginSchema, registerSchema, User } from '../../../../contracts/user';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/me: who the session cookie belongs to; null when signed out (difference 2). */
export const fetchMe = () => apiRequest<User | null>('/api/me', { on401: 'null' });

/** POST /api/login: the response is the user object (spec 7). */
export const postLogin = (body: z.input<typeof loginSchema>) => apiRequest<User>('/api/login', { method: 'POST', body });

/** POST /api/register with the spec's payload; the response is not read. */
export const postRegister = (body: z.input<typeof registerSchema>) => apiRequest<unknown>('/api/register', { method: 'POST', body });

export const postLogout = () => apiRequest<unknown>('/api/logout', { method: 'POST' });
