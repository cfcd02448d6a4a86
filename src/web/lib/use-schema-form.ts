import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiError } from './api-client';
import { type FieldErrors, fieldErrorsOf, focusFirstInvalid } from './form-errors';

/**
 * What a form holds before the schema checks it: a choice such as a region is still any string
 * (an empty select), which the schema then accepts or answers with its message.
 */
export type FormValues<T> = T extends string ? string : T extends boolean | number | null | undefined ? T : T extends object ? { [K in keyof T]: FormValues<T[K]> } : T;

interface SchemaFormOptions<Data> {
  send: (data: Data) => Promise<void>;
  /** Tells the shopper what went wrong; field errors the server answered are already shown. */
  onError: (error: unknown) => void;
  /** Field errors the server answers are shown beside their fields unless this is false. */
  showServerFieldErrors?: boolean;
}

/**
 * A form checked by a shared zod schema before it is sent, so the shopper reads the server's own
 * messages (STYLE.md: one schema, both sides). While sending the form is busy; field errors the
 * server answers (a 400 or 409 with fieldErrors) are shown beside their fields too.
 */
export function useSchemaForm<Schema extends z.ZodType>(schema: Schema, options: SchemaFormOptions<z.output<Schema>>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  // A failed submit moves focus to the first field in error once its message is on the page.
  const form = useRef<HTMLFormElement | null>(null);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures && form.current) focusFirstInvalid(form.current);
  }, [failures]);

  /**
   * Checks the values again as they change, once the form has been submitted (spec 5); `against`,
   * the schema the next render will have, when what changed is one of the schema's own inputs.
   */
  const revalidate = (values: FormValues<z.input<Schema>>, against: z.ZodType = schema) => {
    if (!submitted) return;
    const parsed = against.safeParse(values);
    setErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
  };

  const handleSubmit = (values: FormValues<z.input<Schema>>) => async (event: FormEvent) => {
    event.preventDefault();
    if (event.currentTarget instanceof HTMLFormElement) form.current = event.currentTarget;
    setSubmitted(true);
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      setFailures((count) => count + 1);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await options.send(parsed.data);
    } catch (error) {
      const fieldErrors = error instanceof ApiError ? error.body?.fieldErrors : undefined;
      if (fieldErrors && options.showServerFieldErrors !== false) {
        setErrors(fieldErrors);
        setFailures((count) => count + 1);
      }
      options.onError(error);
    } finally {
      setBusy(false);
    }
  };

  return { errors, busy, handleSubmit, revalidate };
}
