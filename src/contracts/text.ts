import { z } from 'zod';
import { emailPattern } from './email';

export { emailPattern };

/** A string field whose every failure (missing, wrong type, too short) reads as one message. */
export function requiredText(message: string, min: number, max: number, tooLong?: string) {
  return z
    .string({ error: message })
    .trim()
    .min(min, message)
    .max(max, tooLong ?? `Must be at most ${max} characters`);
}

export function optionalText(max: number) {
  return z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .default('');
}



/** Spec 5: e-mail at least 5 characters, then the pattern; trimmed and lower-cased. */
export const emailField = z
  .string({ error: 'Email address is required' })
  .trim()
  .min(5, 'Email address is required')
  .max(254, 'Please enter a valid email address')
  .regex(emailPattern, 'Please enter a valid email address')
  .transform((email) => email.toLowerCase());
