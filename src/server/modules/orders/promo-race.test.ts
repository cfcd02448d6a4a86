import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promoCodes } from '../../db/schema';
import { quickShopper, testProduct, testPromo } from '../../testing/order-helpers';
import { createTestShop, type TestShop } from '../../testing/test-app';

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(async () => shop?.close());

/**
 * Staff change a code in a transaction of their own that is still open while an order is placed.
 * Only PostgreSQL runs the two at once (PGlite runs one transaction at a time), so the race is
 * played there, with a second connection holding the staff change.
 */
describe.runIf(process.env.DATABASE_URL)('a promo code changed while an order is being placed', () => {
  async function whileStaffHoldChange(promoId: number, change: string, place: () => Promise<{ statusCode: number; json(): unknown }>) {
    const database = (shop.database.db as unknown as { $client: pg.Pool }).$client;
    const staff = await database.connect();
    try {
      await staff.query('begin');
      await staff.query(`update promo_codes set ${change} where id = $1`, [promoId]);
      const placing = place();
      // Let the order reach the code's row and wait on the staff's lock.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await staff.query('commit');
      return await placing;
    } finally {
      staff.release();
    }
  }

  it('does not apply a code switched off at the same moment', async () => {
    const promo = await testPromo(shop, { discountValue: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const response = await whileStaffHoldChange(promo.id, 'is_active = false', () => shopper.order({ promoCode: promo.code }));
    expect(response.statusCode).toBe(400);
    expect((response.json() as { fieldErrors: Record<string, string> }).fieldErrors.promoCode).toBe('This promo code is no longer available.');
    const [row] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, promo.id));
    expect(row!.usedCount).toBe(0);
    expect((await shopper.cart()).itemCount).toBe(1);
  });

  it('does not apply a code whose end date was moved into the past at the same moment', async () => {
    const promo = await testPromo(shop, { discountValue: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const response = await whileStaffHoldChange(promo.id, "ends_at = now() - interval '1 minute'", () => shopper.order({ promoCode: promo.code }));
    expect(response.statusCode).toBe(400);
    expect((response.json() as { fieldErrors: Record<string, string> }).fieldErrors.promoCode).toBe('This promo code has expired.');
  });

  it('prices with the edited discount, so a total the shopper was shown before the edit is refused', async () => {
    const promo = await testPromo(shop, { discountValue: 10 });
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop, { priceCents: 5000 })).id, 2);
    const quote = (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { promoCode: promo.code } })).json() as { total: number };
    expect(quote.total).toBe(102);
    const response = await whileStaffHoldChange(promo.id, 'discount_value = 5', () =>
      shopper.order({ promoCode: promo.code, expectedTotalCents: Math.round(quote.total * 100) }),
    );
    expect(response.statusCode).toBe(409);
    expect((await shopper.cart()).itemCount).toBe(2);
  });
});
