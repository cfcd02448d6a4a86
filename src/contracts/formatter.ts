/**
 * An Intl formatter built the first time it is used, not when its module loads. A browser's first
 * Intl object loads its locale and time-zone data: about 25 ms on a laptop and four times that on a
 * phone, in the task that runs the page's code before it can answer a tap. Pages that never show a
 * date never pay for one.
 */
export function formatter<T>(make: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= make());
}
