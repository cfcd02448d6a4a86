import { formatDate, formatDateTime } from '../../contracts/dates';
import { formatNzd } from '../../contracts/money';

export { formatDate, formatDateTime, formatNzd };

/** Prices travel as dollars in JSON (spec 7); shown from cents so rounding never drifts. */
export function formatPrice(dollars: number): string {
  return formatNzd(Math.round(dollars * 100));
}

