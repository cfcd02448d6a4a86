import { useState } from 'react';
import { ApiError } from './api-client';
import type { FieldErrors } from './form-errors';

/**
 * A form's messages: each field's, and one for the whole form. `refused` shows what the server
 * said (its field errors and message, or `fallback` when it could not be reached); `fixed` clears
 * a field's message as soon as the shopper changes it.
 */
export function useFormProblems(fallback: string) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  return {
    errors,
    setErrors,
    problem,
    setProblem,
    refused(error: unknown) {
      const body = error instanceof ApiError ? error.body : null;
      setErrors(body?.fieldErrors ?? {});
      setProblem(body?.message ?? fallback);
    },
    fixed(field: string) {
      setProblem(null);
      setErrors((now) => (now[field] ? { ...now, [field]: '' } : now));
    },
  };
}
