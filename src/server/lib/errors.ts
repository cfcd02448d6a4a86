/** Typed errors thrown by services; the one error handler turns them into the API's error body. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    /** More for the client to act on (a suggested date), added to the error body as it is. */
    readonly details?: Record<string, string | number>,
  ) {
    super(message);
  }
}

export class BadRequest extends AppError {
  constructor(message: string, fieldErrors?: Record<string, string>) {
    super(400, message, fieldErrors);
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Please sign in to continue.') {
    super(401, message);
  }
}

export class Forbidden extends AppError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, message);
  }
}

export class NotFound extends AppError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, fieldErrors?: Record<string, string>, details?: Record<string, string | number>) {
    super(409, message, fieldErrors, details);
  }
}

export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

export class RequestTimeout extends AppError {
  constructor(message: string) {
    super(408, message);
  }
}

export class ServiceUnavailable extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/** A field-level 400: `{ message, fieldErrors: { field: message } }`. */
export function fieldError(field: string, message: string): BadRequest {
  return new BadRequest(message, { [field]: message });
}

/** PostgreSQL's unique-violation code, from either driver (drizzle wraps it in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause];
  return candidates.some((e) => {
    const pgError = e as { code?: string; constraint?: string } | null;
    return pgError?.code === '23505' && (!constraint || pgError.constraint === constraint);
  });
}
