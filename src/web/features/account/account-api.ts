import type { ChangePasswordInput, ProfileInput, ReminderSettings, User } from '../../../contracts/user';
import { apiRequest } from '../../lib/api-client';

export const putProfile = (body: ProfileInput) => apiRequest<User>('/api/account/profile', { method: 'PUT', body });

export const putPassword = (body: ChangePasswordInput) => apiRequest<{ message: string }>('/api/account/password', { method: 'PUT', body });

export const remindersKey = ['account', 'reminders'] as const;

export const fetchReminders = (signal?: AbortSignal) => apiRequest<ReminderSettings>('/api/account/reminders', { signal });

export const putReminders = (body: Partial<ReminderSettings>) => apiRequest<ReminderSettings>('/api/account/reminders', { method: 'PUT', body });
