import { z } from 'zod';
import { nzRegions } from './order';
import { emailField, emailPattern, optionalText, requiredText } from './text';

/** Spec 5: a leading 0, then a digit 2-9, then digits or spaces. */
export const nzPhonePattern = /^0[2-9][\d\s]+$/;

export const passwordField = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(128, 'Password must be at most 128 characters');

export const phoneField = z
  .string({ error: 'Phone number is required' })
  .trim()
  .min(8, 'Phone number is required')
  .max(20, 'Must be a valid NZ mobile number format')
  .regex(nzPhonePattern, 'Must be a valid NZ mobile number format');

export const usernameField = requiredText('Username must be at least 3 characters', 3, 40).regex(
  /^[\p{L}\p{N}._-]+$/u,
  'Username can only use letters, numbers, dots, dashes and underscores',
);

/**
 * Spec 3 and 5: the registration payload. Unknown fields (isAdmin among them) are dropped, not
 * rejected: difference 4 of the architecture.
 */
export const registerSchema = z.object({
  username: usernameField,
  email: emailField,
  password: passwordField,
  firstName: requiredText('First name is required', 2, 50),
  lastName: requiredText('Last name is required', 2, 50),
  phone: phoneField,
  address: requiredText('Home address is required', 5, 200),
  city: optionalText(80),
  postalCode: optionalText(10),
  region: optionalText(60),
});
export type RegisterInput = z.input<typeof registerSchema>;

/** Spec 5: login e-mail rules and a password of at least 6 characters. */
export const loginSchema = z.object({
  email: emailField,
  password: passwordField,
});
export type LoginInput = z.input<typeof loginSchema>;

/** Spec 5: the pre-order sign-in modal checks only for a valid e-mail and a password. */
export const preOrderSignInSchema = z.object({
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, 'Please enter a valid email address')
    .regex(emailPattern, 'Please enter a valid email address')
    .transform((email) => email.toLowerCase()),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128, 'Password must be at most 128 characters'),
});

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z.object({
  token: z.string({ error: 'This reset link is invalid' }).min(20, 'This reset link is invalid').max(200, 'This reset link is invalid'),
  password: passwordField,
});

/** PUT /api/account/profile: what a shopper edits on /account (e-mail and username stay as registered). */
export const profileSchema = z.object({
  firstName: requiredText('First name is required', 2, 50),
  lastName: requiredText('Last name is required', 2, 50),
  phone: phoneField,
  address: requiredText('Home address is required', 5, 200),
  city: optionalText(80),
  postalCode: z
    .string({ error: 'Postcode must be 4 digits' })
    .trim()
    .regex(/^(\d{4})?$/, 'Postcode must be 4 digits')
    .optional()
    .default(''),
  region: z.union([z.enum(nzRegions), z.literal('')], { error: 'Choose a region' }).optional().default(''),
});
export type ProfileInput = z.input<typeof profileSchema>;

/** GET and PUT /api/account/reminders: the e-mail on the first day an order's mangoes should be ready. */
/** PUT /api/account/reminders: either choice, or both; GET answers both. */
export const reminderSettingsSchema = z
  .strictObject({
    ripenessReminders: z.boolean({ error: 'Ripeness reminders must be true or false' }).optional(),
    reviewRequests: z.boolean({ error: 'Review requests must be true or false' }).optional(),
  })
  .refine((choice) => choice.ripenessReminders !== undefined || choice.reviewRequests !== undefined, { message: 'Choose ripeness reminders or review requests', path: ['ripenessReminders'] });
export type ReminderSettings = Required<z.output<typeof reminderSettingsSchema>>;

/** PUT /api/account/password: the current password proves it is the shopper, not a borrowed session. */
export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(128, 'Password must be at most 128 characters'),
  newPassword: passwordField,
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** Spec 3: the User object, as login answers it and the browser caches it under 'user'. */
export interface User {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  address: string;
  city: string;
  postalCode: string;
  region: string;
  isAdmin: boolean;
}
