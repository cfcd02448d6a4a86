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
