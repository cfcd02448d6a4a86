import { ApiError } from '../../lib/api-client';

/** The description of the failure toast: the server's own words when it sent some (429, 503, 400). */
export function subscriptionFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400) return 'Please enter a valid email address.';
    if (error.body?.message) return error.body.message;
    return 'Something went wrong on our side. Please try again in a moment.';
  }
  return "We couldn't reach Mango Shop. Please check your connection and try again.";
}
