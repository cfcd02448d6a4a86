import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPromoCode, AdminPromoPage } from '../../../contracts/promo-admin';
import { auditLog, promoCodes } from '../../db/schema';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { as, openStaffShop, registerAndSignIn, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let adminId: number;
beforeAll(async () => ({ shop, staff, adminId } = await openStaffShop()));
afterAll(async () => shop?.close());

const winter = { code: 'winter-15', description: '15% off winter boxes', discountType: 'percentage', discountValue: 15 };

const create = (body: Record<string, unknown>) => staff({ method: 'POST', url: '/api/admin/promo-codes', payload: body });
const edit = (id: number, body: Record<string, unknown>) => staff({ method: 'PUT', url: `/api/admin/promo-codes/${id}`, payload: body });
const remove = (id: number) => staff({ method: 'DELETE', url: `/api/admin/promo-codes/${id}` });
const detail = async (id: number) => (await staff({ method: 'GET', url: `/api/admin/promo-codes/${id}` })).json() as AdminPromoCode;
const created = async (body: Record<string, unknown>) => {
  const response = await create(body);
  expect(response.statusCode).toBe(201);
  return response.json() as AdminPromoCode;
};

const storedRow = async (id: number) => (await shop.database.db.select().from(promoCodes).where(eq(promoCodes.id, id)))[0];
const auditOf = (id: number) =>
  shop.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'promo_code'), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));
const counts = async () => ({
  promos: (await shop.database.db.select({ n: count() }).from(promoCodes))[0]!.n,
  audits: (await shop.database.db.select({ n: count() }).from(auditLog))[0]!.n,
});
const activeCodes = async () => ((await shop.app.inject({ method: 'GET', url: '/api/promo-codes/active' })).json() as Array<{ code: string }>).map((p) => p.code);

/** A shopper with a $100 cart (two $50 boxes) asking for a quote with `code`. */
async function quoteWith(code: string) {
  const shopper = await quickShopper(shop);
  await shopper.add((await testProduct(shop, { priceCents: 5000 })).id, 2);
  return (await shopper.call({ method: 'POST', url: '/api/checkout/quote', payload: { promoCode: code } })).json() as {
    discount: number;
    total: number;
    promo: { code: string; applied: boolean; message: string } | null;
  };
}

describe('POST /api/admin/promo-codes', () => {
  it('creates a code stored in capitals, with a fixed amount in cents, and audits it', async () => {
    const promo = await created({ ...winter, maxUses: 50, maxUsesPerCustomer: 1, startsAt: '2026-01-01T00:00:00+13:00', endsAt: '2099-01-01T00:00:00Z' });
    expect(promo).toMatchObject({
      code: 'WINTER-15',
      description: '15% off winter boxes',
      discountType: 'percentage',
      discountValue: 15,
      startsAt: '2025-12-31T11:00:00.000Z',
      endsAt: '2099-01-01T00:00:00.000Z',
      minimumOrder: null,
      maxUses: 50,
      maxUsesPerCustomer: 1,
      isActive: true,
      usedCount: 0,
      state: 'live',
      orderCount: 0,
      revenue: 0,
      discountGiven: 0,
      canDelete: true,
    });

    const fixed = await created({ code: 'Box5', description: '$5.50 off a box', discountType: 'fixed', discountValue: 5.5, minimumOrder: 40.25 });
    expect(fixed).toMatchObject({ code: 'BOX5', discountValue: 5.5, minimumOrder: 40.25, startsAt: null, endsAt: null, maxUses: null, isActive: true });
    expect(await storedRow(fixed.id)).toMatchObject({ code: 'BOX5', discountValue: 550, minimumOrderCents: 4025 });

    const [audit] = await auditOf(fixed.id);
    expect(audit).toMatchObject({ action: 'promo_code.create', actorUserId: adminId, before: null });
    expect(audit!.after).toMatchObject({ code: 'BOX5', discountType: 'fixed', discountValue: 5.5, minimumOrder: 40.25 });
    expect(await activeCodes()).toEqual(expect.arrayContaining(['WINTER-15', 'BOX5']));
  });

  it('refuses every bad input with a message per field and stores nothing', async () => {
    const before = await counts();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, { code: 'Code is required', description: 'Description is required', discountType: 'Choose a percentage or a fixed amount', discountValue: 'Enter the discount as a number' }],
      [{ ...winter, code: 'no spaces!' }, { code: 'Code can only use letters, digits and dashes' }],
      [{ ...winter, code: 'AB' }, { code: 'Code must be at least 3 characters' }],
      [{ ...winter, code: 'A'.repeat(31) }, { code: 'Code must be at most 30 characters' }],
      [{ ...winter, description: '' }, { description: 'Description is required' }],
      [{ ...winter, discountType: 'bogof' }, { discountType: 'Choose a percentage or a fixed amount' }],
      [{ ...winter, discountValue: 0 }, { discountValue: 'Discount must be more than 0' }],
      [{ ...winter, discountValue: 101 }, { discountValue: 'A percentage must be a whole number from 1 to 100' }],
      [{ ...winter, discountValue: 12.5 }, { discountValue: 'A percentage must be a whole number from 1 to 100' }],
      [{ ...winter, discountType: 'fixed', discountValue: 5.555 }, { discountValue: 'A fixed amount can have at most 2 decimals' }],
      [{ ...winter, discountType: 'fixed', discountValue: -5 }, { discountValue: 'Discount must be more than 0' }],
      [{ ...winter, startsAt: 'next tuesday' }, { startsAt: 'Start must be a date and time' }],
      [{ ...winter, startsAt: '2026-06-01T00:00:00Z', endsAt: '2026-05-01T00:00:00Z' }, { endsAt: 'End must be after the start' }],
      [{ ...winter, startsAt: '2026-06-01T00:00:00Z', endsAt: '2026-06-01T00:00:00Z' }, { endsAt: 'End must be after the start' }],
      [{ ...winter, minimumOrder: 0 }, { minimumOrder: 'Minimum order must be more than $0.00' }],
      [{ ...winter, minimumOrder: 10.001 }, { minimumOrder: 'Minimum order can have at most 2 decimals' }],
      [{ ...winter, maxUses: 0 }, { maxUses: 'Total uses must be at least 1' }],
      [{ ...winter, maxUses: 2.5 }, { maxUses: 'Total uses must be a whole number' }],
      [{ ...winter, maxUsesPerCustomer: 0 }, { maxUsesPerCustomer: 'Uses per customer must be at least 1' }],
      [{ ...winter, isActive: 'yes' }, { isActive: 'Active must be true or false' }],
      [{ ...winter, usedCount: 5 }, { usedCount: 'Unknown field: usedCount' }],
    ];
    for (const [body, fieldErrors] of cases) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().fieldErrors, JSON.stringify(body)).toEqual(fieldErrors);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a code that exists in any case with 409 on the code field', async () => {
    const before = await counts();
    for (const code of ['mango10', 'Winter-15']) {
      const response = await create({ ...winter, code });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message: 'A promo code with this code already exists', fieldErrors: { code: 'A promo code with this code already exists' } });
    }
    expect(await counts()).toEqual(before);
  });

  it('is staff only', async () => {
    const customer = (await registerAndSignIn(shop.app, { username: 'promo-shopper', email: 'promo-shopper@example.nz' })).cookie;
    expect((await as(shop.app, customer)({ method: 'POST', url: '/api/admin/promo-codes', payload: winter })).statusCode).toBe(403);
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/promo-codes' })).statusCode).toBe(401);
  });
});

describe('GET /api/admin/promo-codes', () => {
  it('searches by code and pages on the server, newest first', async () => {
    for (const code of ['SPRING-A', 'SPRING-B', 'SPRING-C']) await created({ ...winter, code });
    const all = await staff({ method: 'GET', url: '/api/admin/promo-codes?q=spring&pageSize=2' });
    expect(all.headers['cache-control']).toBe('no-store');
    const first = all.json() as AdminPromoPage;
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.promoCodes.map((p) => p.code)).toEqual(['SPRING-C', 'SPRING-B']);
    const second = (await staff({ method: 'GET', url: '/api/admin/promo-codes?q=spring&pageSize=2&page=2' })).json() as AdminPromoPage;
    expect(second.promoCodes.map((p) => p.code)).toEqual(['SPRING-A']);
    const none = (await staff({ method: 'GET', url: '/api/admin/promo-codes?q=%25' })).json() as AdminPromoPage;
    expect(none.total).toBe(0);
    const bad = await staff({ method: 'GET', url: '/api/admin/promo-codes?pageSize=500' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual({ pageSize: 'Page size must be at most 100' });
  });
});

describe('PUT /api/admin/promo-codes/:id', () => {
  it('edits a code and audits the before and after', async () => {
    const promo = await created({ ...winter, code: 'EDIT-ME' });
    const response = await edit(promo.id, { ...winter, code: 'edited', discountType: 'fixed', discountValue: 7.25, minimumOrder: 60, maxUses: 10 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ code: 'EDITED', discountType: 'fixed', discountValue: 7.25, minimumOrder: 60, maxUses: 10 });
    expect(await storedRow(promo.id)).toMatchObject({ discountValue: 725, minimumOrderCents: 6000 });
    const audits = await auditOf(promo.id);
    expect(audits.map((a) => a.action)).toEqual(['promo_code.create', 'promo_code.update']);
    expect(audits[1]).toMatchObject({
      actorUserId: adminId,
      before: expect.objectContaining({ code: 'EDIT-ME', discountType: 'percentage', discountValue: 15, maxUses: null }),
      after: expect.objectContaining({ code: 'EDITED', discountType: 'fixed', discountValue: 7.25, maxUses: 10 }),
    });
  });

  it('switches a code off: it leaves the banner list and the checkout refuses it, until it is switched on', async () => {
    const promo = await created({ ...winter, code: 'TOGGLE-10', discountValue: 10 });
    expect((await quoteWith('toggle-10')).promo).toEqual({ code: 'TOGGLE-10', applied: true, message: 'Promo code applied' });

    const off = await edit(promo.id, { isActive: false });
    expect(off.json()).toMatchObject({ isActive: false, state: 'off', code: 'TOGGLE-10', discountValue: 10 });
    expect(await activeCodes()).not.toContain('TOGGLE-10');
    const refused = await quoteWith('TOGGLE-10');
    expect(refused.promo).toEqual({ code: 'TOGGLE-10', applied: false, message: 'This promo code is no longer available.' });
    expect(refused).toMatchObject({ discount: 0, total: 112 });

    await edit(promo.id, { isActive: true });
    expect(await activeCodes()).toContain('TOGGLE-10');
    expect(await quoteWith('TOGGLE-10')).toMatchObject({ discount: 10, total: 102 });
    const audits = await auditOf(promo.id);
    expect(audits.slice(1).map((a) => [a.action, (a.before as { isActive: boolean }).isActive, (a.after as { isActive: boolean }).isActive])).toEqual([
      ['promo_code.deactivate', true, false],
      ['promo_code.activate', false, true],
    ]);
  });

  it('checks an edit against the stored code and changes nothing when refused', async () => {
    const promo = await created({ code: 'FIXED-25', description: '$25.50 off', discountType: 'fixed', discountValue: 25.5, startsAt: '2026-06-01T00:00:00Z' });
    const rowBefore = await storedRow(promo.id);
    const before = await counts();
    const refusals: Array<[number, Record<string, unknown>, number, Record<string, string> | undefined]> = [
      [promo.id, { discountType: 'percentage' }, 400, { discountValue: 'A percentage must be a whole number from 1 to 100' }],
      [promo.id, { endsAt: '2026-05-01T00:00:00Z' }, 400, { endsAt: 'End must be after the start' }],
      [promo.id, { discountValue: 0 }, 400, { discountValue: 'Discount must be more than 0' }],
      [promo.id, {}, 400, { body: 'Send at least one promo code field' }],
      [promo.id, { code: 'firstbox' }, 409, { code: 'A promo code with this code already exists' }],
      [999_999, { isActive: false }, 404, undefined],
    ];
    for (const [id, body, status, fieldErrors] of refusals) {
      const response = await edit(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().fieldErrors, JSON.stringify(body)).toEqual(fieldErrors);
    }
    expect(await storedRow(promo.id)).toEqual(rowBefore);
    expect(await counts()).toEqual(before);
  });
});

describe('usage and revenue', () => {
  it('counts paid orders placed with the code, leaving out unpaid, cancelled and refunded ones, and refuses to delete it', async () => {
    const promo = await created({ ...winter, code: 'HARVEST10', discountValue: 10, maxUses: 5 });
    const box = await testProduct(shop, { priceCents: 5000, stock: 50 });
    const placeWith = async (boxes: number) => {
      const shopper = await quickShopper(shop);
      await shopper.add(box.id, boxes);
      const response = await shopper.order({ promoCode: 'harvest10' });
      expect(response.statusCode).toBe(201);
      return { shopper, number: (response.json() as { order: { number: string } }).order.number };
    };
    const setStatus = async (number: string, statuses: string[]) => {
      for (const status of statuses) expect((await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status } })).statusCode).toBe(200);
    };
    await setStatus((await placeWith(2)).number, ['paid']); // $100 - $10 + $12 shipping = $102
    await setStatus((await placeWith(1)).number, ['paid', 'packed']); // $50 - $5 + $12 = $57
    await placeWith(1); // unpaid: a use, not yet revenue
    const cancelled = await placeWith(3);
    const refunded = await placeWith(4);
    expect((await cancelled.shopper.call({ method: 'POST', url: `/api/orders/${cancelled.number}/cancel` })).statusCode).toBe(200);
    // Refunded before it was sent: its use came back, as a cancelled order's does.
    await setStatus(refunded.number, ['paid', 'refunded']);

    expect(await detail(promo.id)).toMatchObject({ usedCount: 3, orderCount: 2, revenue: 159, discountGiven: 15, canDelete: false, state: 'live' });
    const listed = (await staff({ method: 'GET', url: '/api/admin/promo-codes?q=harvest' })).json() as AdminPromoPage;
    expect(listed.promoCodes).toEqual([expect.objectContaining({ code: 'HARVEST10', usedCount: 3, orderCount: 2, revenue: 159, discountGiven: 15 })]);

    const tooFew = await edit(promo.id, { maxUses: 2 });
    expect(tooFew.statusCode).toBe(400);
    expect(tooFew.json().fieldErrors).toEqual({ maxUses: 'Total uses cannot be below the 3 uses made so far' });
    expect((await edit(promo.id, { maxUses: 3 })).json()).toMatchObject({ maxUses: 3, state: 'used_up' });
    expect(await activeCodes()).not.toContain('HARVEST10');

    const rowBefore = await storedRow(promo.id);
    const before = await counts();
    const refused = await remove(promo.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('HARVEST10 has been used on orders, so it cannot be deleted. Switch it off instead.');
    expect(await storedRow(promo.id)).toEqual(rowBefore);
    expect(await counts()).toEqual(before);
  });

  it('keeps a code whose only order was cancelled, since that order still names it', async () => {
    await created({ ...winter, code: 'ONCE-ONLY' });
    const [promo] = await shop.database.db.select().from(promoCodes).where(eq(promoCodes.code, 'ONCE-ONLY'));
    const shopper = await quickShopper(shop);
    await shopper.add((await testProduct(shop)).id, 1);
    const number = ((await shopper.order({ promoCode: 'ONCE-ONLY' })).json() as { order: { number: string } }).order.number;
    await shopper.call({ method: 'POST', url: `/api/orders/${number}/cancel` });
    expect(await detail(promo!.id)).toMatchObject({ usedCount: 0, orderCount: 0, revenue: 0, canDelete: false });
    expect((await remove(promo!.id)).statusCode).toBe(409);
  });
});

describe('DELETE /api/admin/promo-codes/:id', () => {
  it('deletes a code never used, audited with what it was', async () => {
    const promo = await created({ ...winter, code: 'TYPO-CODE' });
    const response = await remove(promo.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Promo code deleted' });
    expect(await storedRow(promo.id)).toBeUndefined();
    expect(await activeCodes()).not.toContain('TYPO-CODE');
    const audits = await auditOf(promo.id);
    expect(audits.at(-1)).toMatchObject({ action: 'promo_code.delete', actorUserId: adminId, after: null, before: expect.objectContaining({ code: 'TYPO-CODE' }) });
    expect((await remove(promo.id)).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: `/api/admin/promo-codes/${promo.id}` })).statusCode).toBe(404);
  });
});
