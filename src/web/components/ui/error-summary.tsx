import { type FieldErrors, fieldsInError, focusField } from '../../lib/form-errors';

/** "1 thing to fix", "2 things to fix". */
export function thingsToFix(count: number): string {
  return `${count} ${count === 1 ? 'thing' : 'things'} to fix`;
}

/**
 * Beside a form's button: how many fields are in error, named by their labels in page order (the
 * messages stay beside the fields); each line takes the shopper to its field. Nothing when no
 * field on the page is in error.
 */
export function ErrorSummary({ errors }: { errors: FieldErrors }) {
  if (!Object.keys(errors).length) return null;
  // Errors come only from a submit in the browser, where the fields (marked data-field) are already drawn.
  const listed = fieldsInError(errors);
  if (!listed.length) return null;
  return (
    <div role="alert" aria-labelledby="error-summary-title" className="grid gap-1.5 rounded-lg border border-danger-600/40 bg-white px-3 py-2 text-sm text-danger-600">
      <p id="error-summary-title" className="font-semibold">
        {thingsToFix(listed.length)}
      </p>
      <ul className="grid gap-1">
        {listed.map(({ key, label, element }) => (
          <li key={key}>
            <button type="button" className="text-left underline underline-offset-2 hover:no-underline" onClick={() => focusField(element)}>
              {label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
