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

/** What marks a field in error: an input's aria-invalid, or `data-invalid` on a group of choices. */
const invalidSelector = '[aria-invalid="true"], [data-invalid="true"]';

/** Where the shopper lands on a field: its first choice that can take focus, or the field itself. */
function focusTarget(field: HTMLElement): HTMLElement {
  if (field.matches('input, select, textarea, button')) return field;
  const choice = field.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled])');
  if (choice) return choice;
  field.tabIndex = -1;
  return field;
}

/** Moves focus to `field` and scrolls it to the middle of the screen, clear of the sticky header. */
export function focusField(field: HTMLElement) {
  focusTarget(field).focus({ preventScroll: true });
  field.scrollIntoView({ block: 'center' });
}

/**
 * After a failed submit: focuses the first field in error inside `form` (in the order they stand
 * on the page), so a phone shows the message rather than leaving it far above. False when no field
 * of the form is marked.
 */
export function focusFirstInvalid(form: HTMLFormElement): boolean {
  const first = form.querySelector<HTMLElement>(invalidSelector);
  if (!first) return false;
  focusField(first);
  return true;
}

/** What a field is called on the page: its label, or its group's legend. */
function labelOf(element: HTMLElement): string {
  const label = element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement ? element.labels?.[0] : element.querySelector('legend');
  return label?.textContent?.trim() || element.getAttribute('aria-label') || '';
}

/**
 * The fields on the page (marked `data-field`) whose key has an error, in page order, each named
 * by its label: what an error summary lists. Errors of no field on the page (a changed cart) are
 * left to the message that explains them.
 */
export function fieldsInError(errors: FieldErrors, root: ParentNode = document): Array<{ key: string; label: string; element: HTMLElement }> {
  const placed = new Map<string, HTMLElement>();
  for (const element of root.querySelectorAll<HTMLElement>('[data-field]')) {
    const key = element.dataset.field!;
    if (key in errors && !placed.has(key)) placed.set(key, element);
  }
  const before = (a: HTMLElement, b: HTMLElement) => {
    return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  };
  return Object.keys(errors)
    .flatMap((key) => {
      const element = placed.get(key);
      return element ? [{ key, label: labelOf(element), element }] : [];
    })
    .sort((a, b) => before(a.element, b.element));
}
