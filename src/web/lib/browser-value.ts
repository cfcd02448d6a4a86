import { useSyncExternalStore } from 'react';

// Read once per render, never watched: what it reads changes only when the page does.
const noChanges = () => () => {};

/**
 * A value only the browser knows (its clock, its local storage), read while rendering: the page
 * hydrates with `serverValue`, as the server drew it, and is then drawn at once with `read()`.
 * `read` must return a primitive (or the same object) while nothing changes.
 */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noChanges, read, () => serverValue);
}
