/** A query's key: a list of parts, from the general to the particular (`['orders', number]`). */
export type QueryKey = readonly unknown[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (Object.prototype.toString.call(value) !== '[object Object]') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}

/**
 * A key's identity: its JSON with each object's fields in name order, so `{ page, status }` and
 * `{ status, page }` are one key, and a field set to `undefined` is the same as one left out.
 */
export function hashKey(key: QueryKey): string {
  return JSON.stringify(key, (_name, value: unknown) =>
    isPlainObject(value)
      ? Object.keys(value)
          .sort()
          .reduce<Record<string, unknown>>((sorted, name) => {
            sorted[name] = value[name];
            return sorted;
          }, {})
      : value,
  );
}

/**
 * Whether `key` starts with `prefix`, part by part: `['orders']` covers `['orders', 12]` and
 * `['orders', 12, 'claims']`, but `['admin', 'claims']` does not cover `['admin', 'claim', 7]`. An
 * object part covers an object with at least its fields.
 */
export function startsWith(key: unknown, prefix: unknown): boolean {
  if (key === prefix) return true;
  if (typeof key !== typeof prefix) return false;
  if (key && prefix && typeof key === 'object' && typeof prefix === 'object') {
    return Object.keys(prefix).every((name) => startsWith((key as Record<string, unknown>)[name], (prefix as Record<string, unknown>)[name]));
  }
  return false;
}

/**
 * `next`, reusing every part of `previous` that is equal to it: an answer that did not change keeps
 * the very same objects, so what depends on them (effects, memoised values) does not run again.
 */
export function keepEqualParts<T>(previous: unknown, next: T): T {
  if (previous === next) return previous as T;
  const arrays = Array.isArray(previous) && Array.isArray(next);
  if (!arrays && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const names = Object.keys(after);
  const copy: Record<string, unknown> | unknown[] = arrays ? [] : {};
  let same = 0;
  for (const name of names) {
    const part = keepEqualParts(before[name], after[name]);
    (copy as Record<string, unknown>)[name] = part;
    if (part === before[name] && (part !== undefined || Object.prototype.hasOwnProperty.call(before, name))) same += 1;
  }
  return (Object.keys(before).length === names.length && same === names.length ? previous : copy) as T;
}
