import type { ChangePasswordInput, ProfileInput, User } from '../../../contracts/user';
import { apiRequest } from '../../lib/api-client';

export const putProfile = (body: ProfileInput) => apiRequest<User>('/api/account/profile', { method: 'PUT', body });

export const putPassword = (body: ChangePasswordInput) => apiRequest<{ message: string }>('/api/account/password', { method: 'PUT', body });
