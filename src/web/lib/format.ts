import { formatDate } from '../../contracts/date-text';
import { formatNzd } from '../../contracts/money';

// Dates with a time of day come from contracts/dates: only staff pages and receipts show them.
export { formatDate, formatNzd };

/** Prices travel as dollars in JSON (spec 7); shown from cents so rounding never drifts. */
export function formatPrice(dollars: number): string {
  return formatNzd(Math.round(dollars * 100));
}

