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

/** Settings that let one address register and order as much as the reports need. */
export const benchLimits = { REGISTRATIONS_PER_IP_PER_HOUR: '100000', ORDERS_PER_USER_PER_HOUR: '1000000', LOGIN_FAILS_PER_IP: '100000' };

/** `count` new accounts, registered and signed in; a few at a time (each hashes a password twice). */
export async function registerShoppers(baseUrl: string, count: number, prefix = 'bench'): Promise<Shopper[]> {
  const shoppers: Shopper[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const index = next++;
        const email = `${prefix}${index}@example.nz`;
        const response = await fetch(`${baseUrl}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: `${prefix}${index}`, email, password: 'bench-password-1', firstName: 'Bench', lastName: 'Shopper', phone: '021 555 0100', address: '1 Queen Street', city: '', postalCode: '', region: '' }),
        });
        await response.arrayBuffer();
        if (response.status !== 201) throw new Error(`registering ${email} failed: ${response.status}`);
        const login = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench-password-1' }) });
        const { id } = (await login.json()) as { id: number };
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
        if (!login.ok || !cookie) throw new Error(`signing in ${email} failed: ${login.status}`);
        shoppers[index] = { id, cookie };
      }
    }),
  );
  return shoppers;
}

/** The admin's session cookie. */
export async function signInAdmin(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchAdmin.ADMIN_EMAIL, password: benchAdmin.ADMIN_PASSWORD }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the bench admin could not sign in: ${response.status}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
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
