import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView } from '../../../contracts/batches';
import type { AdminOrderDetail } from '../../../contracts/admin-orders';
import type { Cart } from '../../../contracts/cart';
import type { PlacedOrder } from '../../../contracts/order';
import { quickShopper } from '../../testing/order-helpers';
import type { Product } from '../../../contracts/product';
import type { SetupChecklist } from '../../../contracts/setup';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

const fields = (values: Record<string, unknown> = {}) => ({
  name: `Origin Kesar ${Math.random().toString(36).slice(2, 8)}`,
  description: 'Saffron-sweet mangoes for the origin tests.',
  price: 49.99,
  imageUrl: '/images/products/kesar.svg',
  category: 'Classic',
  stock: 6,
  ...values,
});
const publicProduct = async (id: number) => (await shop.app.inject({ method: 'GET', url: `/api/products/${id}` })).json<Product>();
const listed = async (id: number) => (await shop.app.inject({ method: 'GET', url: '/api/products' })).json<Product[]>().find((product) => product.id === id)!;

describe('country of origin and treatment on every offer', () => {
  it('are set on a product (the code upper-cased) and carried by its answer, its list entry and its opening batch', async () => {
    const created = await staff({ method: 'POST', url: '/api/products', payload: fields({ originCountry: 'in', treatment: 'irradiated' }) });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<Product>();
    const expected = { origin: { countries: ['IN'], label: 'Grown in India' }, treatment: { kinds: ['irradiated'], label: 'Treated with ionising radiation' } };
    expect(await publicProduct(id)).toMatchObject(expected);
    expect(await listed(id)).toMatchObject({ ...expected, originSetting: { country: 'IN', treatment: 'irradiated' } });
    const batches = (await staff({ method: 'GET', url: `/api/admin/inventory/${id}/batches` })).json<BatchView[]>();
    expect(batches.map((batch) => [batch.originCountry, batch.treatment])).toEqual([['IN', 'irradiated']]);
    // The cart line says it too, in the answer to the add and to every read.
    const shopper = await quickShopper(shop, 'origin');
    await shopper.add(id, 1);
    expect((await shopper.call({ method: 'GET', url: `/api/cart/${shopper.user.id}` })).json<Cart>().items[0]!.product).toMatchObject({ origin: 'Grown in India', treatment: 'Treated with ionising radiation' });
    // The packing slip's source of each line names where its boxes were grown.
    const placed = await shopper.order();
    expect(placed.statusCode, placed.body).toBe(201);
    const detail = (await staff({ method: 'GET', url: `/api/admin/orders/${placed.json<PlacedOrder>().order.number}` })).json<AdminOrderDetail>();
    expect(detail.lineBatches[0]!.from[0]).toMatchObject({ boxes: 1, originCountry: 'IN', treatment: 'irradiated' });
    // The order keeps what the offer said: on its lines, in its confirmation and on its Xero invoice.
    expect(detail.lines[0]).toMatchObject({ origin: 'Grown in India', treatment: 'Treated with ionising radiation' });
    const number = placed.json<PlacedOrder>().order.number;
    const confirmation = (await shop.mail()).find((mail) => mail.subject.startsWith(`Your order ${number}`))!;
    expect(confirmation.text).toContain(`${detail.lines[0]!.name}: Grown in India. Treated with ionising radiation.`);
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'paid' } })).statusCode).toBe(200);
    const csv = (await staff({ method: 'GET', url: '/api/admin/exports/xero-invoices.csv' })).body;
    expect(csv).toContain(`${detail.lines[0]!.name}. Grown in India. Treated with ionising radiation`);
  });

  it('refuse a code no country has and a treatment not on the list, by field', async () => {
    for (const [payload, field] of [
      [{ originCountry: 'ZZ' }, 'originCountry'],
      [{ originCountry: 'India' }, 'originCountry'],
      [{ originCountry: 'IN', treatment: 'sprayed' }, 'treatment'],
    ] as const) {
      const refused = await staff({ method: 'POST', url: '/api/products', payload: fields(payload) });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors)).toEqual([field]);
    }
  });

  it('say every country and treatment the boxes on sale could come from, and only those', async () => {
    const { id } = (await staff({ method: 'POST', url: '/api/products', payload: fields({ stock: 2, originCountry: 'IN', treatment: 'irradiated' }) })).json<Product>();
    const arrived = await staff({
      method: 'POST',
      url: `/api/admin/inventory/${id}/batches`,
      payload: { boxes: 4, harvestedOn: '2026-11-20', bestBefore: '2026-12-30', grower: 'Multan orchards', originCountry: 'PK', treatment: 'vapour-heat' },
    });
    expect(arrived.statusCode, arrived.body).toBe(201);
    expect(await publicProduct(id)).toMatchObject({
      origin: { countries: ['IN', 'PK'], label: 'Grown in India or Pakistan' },
      treatment: { kinds: ['irradiated', 'vapour-heat'], label: 'Treated with ionising radiation, or vapour-heat treated' },
    });
    // The Indian boxes written off: only Pakistan's are left to send.
    const batches = (await staff({ method: 'GET', url: `/api/admin/inventory/${id}/batches` })).json<BatchView[]>();
    const indian = batches.find((batch) => batch.originCountry === 'IN')!;
    const gone = await staff({ method: 'POST', url: `/api/admin/inventory/${id}/batches/${indian.id}/write-offs`, payload: { boxes: 2, reason: 'spoiled' } });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await publicProduct(id)).toMatchObject({ origin: { countries: ['PK'], label: 'Grown in Pakistan' }, treatment: { kinds: ['vapour-heat'], label: 'Vapour-heat treated' } });
    expect(await listed(id)).toMatchObject({ origin: { label: 'Grown in Pakistan' } });
  });

  it("say a pre-order's coming shipment is what its product says, and a shipment may say otherwise", async () => {
    const { id } = (
      await staff({ method: 'POST', url: '/api/products', payload: fields({ stock: 0, isPreOrder: true, expectedAvailabilityDate: '2027-02-01', originCountry: 'AU', treatment: 'hot-water' }) })
    ).json<Product>();
    expect(await publicProduct(id)).toMatchObject({ origin: { countries: ['AU'], label: 'Grown in Australia' }, treatment: { label: 'Hot-water treated' } });
    const landed = await staff({ method: 'POST', url: `/api/admin/inventory/${id}/shipments`, payload: { boxes: 3, arrivalDate: '2026-11-02', originCountry: 'PH', treatment: 'vapour-heat' } });
    expect(landed.statusCode, landed.body).toBe(201);
    const batches = (await staff({ method: 'GET', url: `/api/admin/inventory/${id}/batches` })).json<BatchView[]>();
    expect(batches.map((batch) => [batch.originCountry, batch.treatment])).toEqual([['PH', 'vapour-heat']]);
  });

  it('are asked for on the dashboard while a product has none, naming it', async () => {
    const { id, name } = (await staff({ method: 'POST', url: '/api/products', payload: fields() })).json<Product>();
    expect(await publicProduct(id)).toMatchObject({ origin: { countries: [], label: 'Country of origin not yet recorded' }, treatment: { kinds: [], label: 'Treatment not yet recorded' } });
    const item = (await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing.find((one) => one.key === 'product-origin');
    expect(item).toMatchObject({ link: '/admin/products' });
    expect(item!.detail).toContain(name);
    const saved = await staff({ method: 'PUT', url: `/api/products/${id}`, payload: { originCountry: 'IN', treatment: 'irradiated' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await staff({ method: 'GET', url: '/api/admin/setup' })).json<SetupChecklist>().missing.find((one) => one.key === 'product-origin');
    expect(after?.detail ?? '').not.toContain(name);
  });
});
