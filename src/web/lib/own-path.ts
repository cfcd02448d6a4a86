/**
 * `value` as a path of this shop to go to ('/shop?x=1'), or null when it would lead elsewhere:
 * '//host', '/\\host', a tab or newline the URL parser drops, or any other origin.
 */
export function ownPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/')) return null;
  const base = 'https://shop.invalid';
  try {
    const url = new URL(value, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
