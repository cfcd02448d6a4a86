/** The body of every error answer: architecture, API rules. */
export interface ApiErrorBody {
  message: string;
  fieldErrors?: Record<string, string>;
}
