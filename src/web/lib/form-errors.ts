import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/** The first message per field of a shared schema's failure, as the server reports them too. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || 'form';
    errors[field] ??= issue.message;
  }
  return errors;
}
