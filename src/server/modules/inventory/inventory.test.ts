import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryRow, StockMovementView } from '../../../contracts/inventory';
import { queryRows } from '../../db/client';
import { quickShopper } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
beforeAll(async () => ({ shop, staff } = await openStaffShop()));
afterAll(async () => shop?.close());

/** Products whose stock is not the sum of their movements: always none. */
async function unexplainedStock() {
  return queryRows<{ id: number; stock: number; moved: number }>(
    shop.database.db,
    sql`select p.id, p.stock, coalesce(sum(m.change), 0)::int as moved
        from products p left join stock_movements m on m.product_id = p.id
        group by p.id having p.stock <> coalesce(sum(m.change), 0)`,
  );
}

const adjust = (productId: number, body: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/inventory/${productId}/adjustments`, payload: body });
const movements = async (productId: number) => (await staff({ method: 'GET', url: `/api/admin/inventory/${productId}/movements` })).json() as StockMovementView[];

describe('inventory', () => {
  it('starts with every seeded product explained by its opening stock', async () => {
    expect(await unexplainedStock()).toEqual([]);
    const list = (await staff({ method: 'GET', url: '/api/admin/inventory' })).json() as InventoryRow[];
    expect(list.find((row) => row.name === 'Himsagar Mangoes')).toMatchObject({ stock: 4, isLowStock: true, isPreOrder: false });
    expect(list.find((row) => row.name === 'Dasheri Mangoes')).toMatchObject({ isPreOrder: true, preOrderLimit: 80, preOrdered: 0, isLowStock: false });
    expect((await movements(1)).map((m) => [m.change, m.reason, m.note])).toEqual([[40, 'opening', 'Opening stock']]);
  });

  it('records boxes received, spoiled and corrected, and never goes below 0', async () => {
    expect((await adjust(3, { change: 12, reason: 'received', note: 'Morning delivery' })).json()).toMatchObject({ stock: 42 });
    expect((await adjust(3, { change: -2, reason: 'spoiled' })).json()).toMatchObject({ stock: 40 });
    const tooMany = await adjust(3, { change: -41, reason: 'correction' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toBe('Only 40 boxes of Banganapalli Mangoes are in stock: it cannot go below 0');
    const history = await movements(3);
    expect(history.slice(0, 2).map((m) => [m.change, m.reason, m.note, m.actor])).toEqual([
      [-2, 'spoiled', '', 'Shop Admin'],
      [12, 'received', 'Morning delivery', 'Shop Admin'],
    ]);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/3' })).json().stock).toBe(40);
  });

  it('refuses bad adjustments with field messages', async () => {
    const zero = await adjust(3, { change: 0, reason: 'received' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().fieldErrors).toEqual({ change: 'Change cannot be 0' });
    const bad = await adjust(3, { change: 1.5, reason: 'stolen' });
    expect(bad.json().fieldErrors).toMatchObject({ change: 'Change must be a whole number of boxes', reason: 'Choose received, spoiled or correction' });
    expect((await adjust(99_999, { change: 1, reason: 'received' })).statusCode).toBe(404);
  });

  it('keeps stock equal to the sum of movements through orders, cancellations, adjustments and product edits', async () => {
    const shopper = await quickShopper(shop);
    await shopper.add(2, 3);
    const placed = (await shopper.order()).json() as { order: { number: string } };
    await shopper.add(7, 1);
    await shopper.order();
    await shopper.call({ method: 'POST', url: `/api/orders/${placed.order.number}/cancel` });
    await adjust(7, { change: 5, reason: 'received' });
    await staff({ method: 'PUT', url: '/api/products/8', payload: { stock: 75 } });
    const created = await staff({ method: 'POST', url: '/api/products', payload: { name: 'Counted Kesar', description: 'Counted boxes.', price: 50, imageUrl: '/images/products/kesar.svg', category: 'Premium', stock: 9 } });
    expect(created.statusCode).toBe(201);

    expect(await unexplainedStock()).toEqual([]);
    expect((await movements(2)).map((m) => [m.change, m.reason, m.orderNumber])).toEqual([
      [3, 'cancellation', placed.order.number],
      [-3, 'order', placed.order.number],
      [25, 'opening', null],
    ]);
    expect((await movements(8))[0]).toMatchObject({ change: 15, reason: 'correction', note: 'Set in the product editor' });
  });
});
