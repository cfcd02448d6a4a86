import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredSettings } from '../../../contracts/settings';
import type { SetupChecklist } from '../../../contracts/setup';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const missing = async () => (await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing.map((item) => item.key);

it('lists what a new shop lacks, each gone once it is set', async () => {
  // The seeded shop: the sample bank account and address, no GST answer, mail links to localhost, no SMTP.
  expect(await missing()).toEqual(['bank-account', 'gst', 'public-url', 'smtp', 'shop-address']);
  const list = (await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing;
  expect(list[0]).toMatchObject({ title: 'Replace the sample bank account number', link: '/admin/settings#tax-and-bank' });

  const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
  const saved = await staff({
    method: 'PUT',
    url: '/api/admin/settings',
    payload: { ...current, gstNotRegistered: true, bankTransfer: { ...current.bankTransfer, accountNumber: '06-0123-0456789-00' }, contact: { ...current.contact, address: '3 Orchard Road, Kerikeri 0230' } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(await missing()).toEqual(['public-url', 'smtp']);

  const cleared = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, bankTransfer: { ...current.bankTransfer, accountNumber: '' } } });
  expect(cleared.statusCode).toBe(200);
  expect((await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing[0]).toMatchObject({ key: 'bank-account', title: 'Add your bank account number' });
});

it('is for staff only', async () => {
  expect((await shop.app.inject({ method: 'GET', url: '/api/admin/setup' })).statusCode).toBe(401);
});

it('flags a content page whose words the settings now contradict, until either is changed', async () => {
  const current = (await staff({ method: 'GET', url: '/api/admin/settings' })).json<StoredSettings>();
  const page = { slug: 'delivery-promise', title: 'Our delivery promise', body: 'Shipping is a **flat $12 per order**, wherever you live. Sorry, there is no order collection.' };
  expect((await staff({ method: 'POST', url: '/api/admin/content/pages', payload: page })).statusCode).toBeLessThan(300);
  const contentFlags = async () => (await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing.filter((item) => item.key.startsWith('content:'));
  // $12.00 is what checkout charges; but a rural address pays more than "wherever you live" says.
  // The seeded pages tell the truth of the seeded settings: they are not flagged.
  expect((await contentFlags()).map((item) => item.key)).toEqual(['content:delivery-promise:rural']);
  const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...current, shippingCents: 1500 } });
  expect(saved.statusCode, saved.body).toBe(200);
  // Now every page that names $12 is flagged, the seeded Shipping Policy and Terms too.
  const flags = await contentFlags();
  expect(flags.map((item) => item.key).sort()).toEqual(['content:delivery-promise:rural', 'content:delivery-promise:shipping', 'content:shipping-policy:shipping', 'content:terms-conditions:shipping']);
  expect(flags.find((item) => item.key === 'content:delivery-promise:shipping')).toMatchObject({ title: 'Check “Our delivery promise”', detail: 'It says shipping is $12.00; checkout charges $15.00.', link: '/admin/content' });
  expect((await staff({ method: 'PUT', url: '/api/admin/settings', payload: current })).statusCode).toBe(200);
});
