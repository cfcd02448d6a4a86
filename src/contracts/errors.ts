/** The body of every error answer: architecture, API rules. */
export interface ApiErrorBody {
  message: string;
  fieldErrors?: Record<string, string>;
  /** A full delivery day: the soonest date with room, to offer instead. */
  nextDeliveryDate?: string;
  /** A pickup day that filled up: the soonest one free. */
  nextPickupDate?: string;
}
