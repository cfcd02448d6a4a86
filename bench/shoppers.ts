/** Registered, signed-in shoppers for the load reports, and the shop's admin. */
export interface Shopper {
  id: number;
  cookie: string;
}

export function jsonHeaders(cookie: string) {
  return { cookie, 'content-type': 'application/json' };
}

/** The admin the reports start the shop with (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const benchAdmin = { ADMIN_EMAIL: 'bench-owner@example.nz', ADMIN_PASSWORD: 'bench-owner-password-1' };

/** Where the reports' orders go. */
export const benchShipping = { name: 'Bench Shopper', phone: '021 555 0100', street: '1 Queen Street', city: 'Auckland', postcode: '1010', region: 'Auckland' };

/** Settings that let one address register and order as much as the reports need. */
export const benchLimits = { REGISTRATIONS_PER_IP_PER_HOUR: '100000', ORDERS_PER_USER_PER_HOUR: '1000000', LOGIN_FAILS_PER_IP: '100000' };

/** `count` new accounts, registered and signed in; a few at a time (each hashes a password twice). */
export async function registerShoppers(baseUrl: string, count: number, prefix = 'bench'): Promise<Shopper[]> {
  const indexes = Array.from({ length: count }, (_, index) => index);
  return inParallel(indexes, 4, async (index) => {
    const email = `${prefix}${index}@example.nz`;
    const response = await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `${prefix}${index}`, email, password: 'bench-password-1', firstName: 'Bench', lastName: 'Shopper', phone: '021 555 0100', address: '1 Queen Street', city: '', postalCode: '', region: '' }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`registering ${email} failed: ${response.status}`);
    return signIn(baseUrl, email, 'bench-password-1');
  });
}

/** The admin's session cookie. */
export async function signInAdmin(baseUrl: string): Promise<string> {
  return (await signIn(baseUrl, benchAdmin.ADMIN_EMAIL, benchAdmin.ADMIN_PASSWORD)).cookie;
}

async function signIn(baseUrl: string, email: string, password: string): Promise<Shopper> {
  const response = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const { id } = (await response.json()) as { id: number };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  if (!response.ok || !cookie) throw new Error(`signing in ${email} failed: ${response.status}`);
  return { id, cookie };
}

/** Runs `work` for each item with at most `width` at once; answers in the items' order. */
export async function inParallel<T, R>(items: T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}
