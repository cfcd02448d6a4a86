import type { ApiErrorBody } from '../../contracts/errors';

/** Spec 8: a non-OK answer is an error reading "{status}: {body}", or the status text when empty. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  /** The server's `{ message, fieldErrors }`, when the body is one. */
  get body(): ApiErrorBody | null {
    try {
      const parsed = JSON.parse(this.bodyText) as Partial<ApiErrorBody>;
      return typeof parsed.message === 'string' ? (parsed as ApiErrorBody) : null;
    } catch {
      return null;
    }
  }
}

/** The server's message for a failed call, or `fallback` when it sent none (a network error, say). */
export function errorMessage(error: unknown, fallback: string): string {
  return (error instanceof ApiError ? error.body?.message : undefined) ?? fallback;
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Spec 7: a load can be set so that 401 yields an empty result; the default fails on 401. */
  on401?: 'throw' | 'null';
  signal?: AbortSignal;
  /** Spec 8: loads whose failure is logged only (settings, banners, testimonials...); it still rejects. */
  warnOnFailure?: string;
}

/** Every call sends credentials; bodies are JSON with a JSON content type (spec 7). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (!options.warnOnFailure) return send<T>(path, options);
  try {
    return await send<T>(path, options);
  } catch (error) {
    if (!options.signal?.aborted) console.warn(options.warnOnFailure, error);
    throw error;
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T> {
  // A file upload (FormData) goes as it is: the browser sets the multipart type and boundary.
  const isForm = options.body instanceof FormData;
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers: options.body === undefined || isForm ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
    signal: options.signal,
    // Public answers say stale-while-revalidate for shared caches; the browser's own copy is always checked first.
    cache: 'no-cache',
  });
  if (response.status === 401 && options.on401 === 'null') return null as T;
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
