import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClaimDetail, AdminClaimList, ClaimView, OrderClaims } from '../../../contracts/claims';
import type { OrderView } from '../../../contracts/order';
import type { DashboardView } from '../../../contracts/reports';
import { queryRows } from '../../db/client';
import { auditLog, claims, orders, refunds } from '../../db/schema';
import { shopConsistency } from '../../faults/consistency';
import { bruised, claimForm, deliveredOrder as deliveredFor } from '../../testing/claim-helpers';
import { quickShopper, stockOf, testPromo } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let photo: Buffer;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop());
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e8a33d' } })
    .withMetadata({ exif: { IFD0: { Copyright: 'secret place' } } })
    .jpeg()
    .toBuffer();
});
afterAll(async () => shop?.close());

type Shopper = Awaited<ReturnType<typeof quickShopper>>;
const deliveredOrder = (options: Parameters<typeof deliveredFor>[2] = {}) => deliveredFor(shop, staff, options);

function report(shopper: Shopper, number: string, claim: unknown, photos: Buffer[] = [photo]) {
  return shopper.call({ method: 'POST', url: `/api/orders/${number}/claims`, ...claimForm(claim, photos) });
}

const mailsTo = async (address: string) => (await shop.mail()).filter((mail) => mail.to === address);
const claimCount = async (orderNumber: string) =>
  Number((await queryRows<{ n: number }>(shop.database.db, sql`select count(*)::int as n from claims c join orders o on o.id = c.order_id where o.number = ${orderNumber}`))[0]!.n);
const refundsOf = async (orderNumber: string) => {
  const [order] = await shop.database.db.select().from(orders).where(eq(orders.number, orderNumber));
  return (await shop.database.db.select().from(refunds).where(eq(refunds.orderId, order!.id))).map((refund) => refund.amountCents);
};

describe('a shopper reports a problem with a delivered order', () => {
  it('records the claim with its photos, e-mails the shopper, shows it on the timeline and keeps one open claim per line', async () => {
    const { shopper, order, lines } = await deliveredOrder();
    expect(lines).toEqual([
      { lineId: expect.any(Number), name: 'Claim Alphonso', quantity: 3, claimable: 3 },
      { lineId: expect.any(Number), name: 'Claim Kesar', quantity: 2, claimable: 2 },
    ]);
    const response = await report(shopper, order.number, bruised(lines[0]!.lineId, 2), [photo, photo]);
    expect(response.statusCode, response.body).toBe(201);
    const claim = response.json<ClaimView>();
    expect(claim).toMatchObject({ status: 'new', reason: 'bruised', outcome: 'refund', lines: [{ name: 'Claim Alphonso', quantity: 2, unitPrice: 50 }], refund: null });
    expect(claim.photoUrls).toEqual([`/api/claims/${claim.id}/photos/1`, `/api/claims/${claim.id}/photos/2`]);

    const mails = await mailsTo(shopper.user.email);
    expect(mails.filter((mail) => mail.subject === `We have your claim #${claim.id} for order ${order.number}`)).toHaveLength(1);
    const timeline = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>().events;
    expect(timeline.at(-1)).toMatchObject({ status: 'delivered', note: `Problem reported (claim #${claim.id}): 2 boxes, bruised` });
    const audited = await shop.database.db.select().from(auditLog).where(eq(auditLog.entity, 'claim'));
    expect(audited.filter((row) => row.entityId === String(claim.id)).map((row) => row.action)).toEqual(['claim.created']);

    // The photo is re-encoded: a JPEG with none of the camera's metadata.
    const stored = await shopper.call({ method: 'GET', url: claim.photoUrls[0]! });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(stored.rawPayload).metadata()).exif).toBeUndefined();
    expect(stored.rawPayload.includes(Buffer.from('secret place'))).toBe(false);
    // Only the shopper and staff see it.
    const other = await quickShopper(shop, 'nosy');
    expect((await other.call({ method: 'GET', url: claim.photoUrls[0]! })).statusCode).toBe(404);
    expect((await shop.app.inject({ method: 'GET', url: claim.photoUrls[0]! })).statusCode).toBe(401);
    expect((await staff({ method: 'GET', url: claim.photoUrls[1]! })).statusCode).toBe(200);
    expect((await other.call({ method: 'GET', url: `/api/orders/${order.number}/claims` })).statusCode).toBe(404);
    expect((await report(other, order.number, bruised(lines[0]!.lineId, 1))).statusCode).toBe(404);

    // The line has an open claim now; the other line can still be claimed.
    const again = await report(shopper, order.number, bruised(lines[0]!.lineId, 1));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Claim Alphonso already has an open claim: we will e-mail you when it is decided.');
    const after = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` })).json<OrderClaims>();
    expect(after.lines.map((line) => line.claimable)).toEqual([0, 2]);
    expect(after.claims.map((one) => one.id)).toEqual([claim.id]);
    expect(after.closedReason).toBeNull();
    expect(after.windowHours).toBe(48);
    expect((await report(shopper, order.number, bruised(lines[1]!.lineId, 2, 'replacement'))).statusCode).toBe(201);
    expect(await claimCount(order.number)).toBe(2);
  });

  it('refuses bad input with field messages and keeps nothing of it', async () => {
    const { shopper, order, lines } = await deliveredOrder();
    const mailsBefore = (await mailsTo(shopper.user.email)).length;
    const lineId = lines[0]!.lineId;
    const refused = async (claim: unknown, photos: Buffer[] | undefined, field: string, message: string) => {
      const response = await report(shopper, order.number, claim, photos);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().fieldErrors).toMatchObject({ [field]: message });
    };
    await refused(bruised(lineId, 1), [], 'photos', 'Add at least one photo of the mangoes');
    await refused(bruised(lineId, 1), [photo, photo, photo, photo, photo, photo], 'photos', 'Add at most 5 photos');
    await refused(bruised(lineId, 1), [Buffer.from('<svg onload=alert(1)></svg>')], 'photos', 'Each photo must be a JPEG, PNG or WebP image');
    await refused(bruised(lineId, 1), [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(100)])], 'photos', 'Each photo must be a JPEG, PNG or WebP image');
    await refused(bruised(lineId, 1), [Buffer.alloc(5 * 1024 * 1024 + 10, 1)], 'photos', 'Each photo must be at most 5 MB');
    await refused('{not json', undefined, 'claim', 'Tell us about the problem');
    await refused({ ...bruised(lineId, 1), reason: 'too sweet' }, undefined, 'reason', 'Choose what went wrong');
    await refused({ ...bruised(lineId, 1), description: 'bad' }, undefined, 'description', 'Tell us what happened (at least 10 characters)');
    await refused({ ...bruised(lineId, 1), outcome: 'cash' }, undefined, 'outcome', 'Choose a refund or a replacement');
    await refused({ ...bruised(lineId, 1), description: 'Bruised all over \u0000 and soft.' }, undefined, 'description', 'Remove the unusual characters from this text');
    await refused({ ...bruised(lineId, 1), lines: [] }, undefined, 'lines', 'Choose the boxes with a problem');
    await refused({ ...bruised(lineId, 1), price: 0 }, undefined, 'claim', expect.any(String));
    await refused(bruised(lineId, 4), undefined, 'lines', 'Only 3 boxes of Claim Alphonso can still be claimed.');
    await refused(bruised(lineId, 0), undefined, 'lines', 'Boxes must be at least 1');
    const elsewhere = await deliveredOrder();
    await refused(bruised(elsewhere.lines[0]!.lineId, 1), undefined, 'lines', 'Choose boxes from this order');
    const json = await shopper.call({ method: 'POST', url: `/api/orders/${order.number}/claims`, payload: bruised(lineId, 1) });
    expect(json.statusCode).toBe(400);

    expect(await claimCount(order.number)).toBe(0);
    expect((await mailsTo(shopper.user.email)).length).toBe(mailsBefore);
  });

  it('is refused before delivery and after the window set in settings', async () => {
    const shipped = await deliveredOrder({ until: 'shipped' });
    const early = await report(shipped.shopper, shipped.order.number, bruised(shipped.lines[0]!.lineId, 1));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('You can report a problem once your order has been delivered.');
    expect((await shipped.shopper.call({ method: 'GET', url: `/api/orders/${shipped.order.number}/claims` })).json<OrderClaims>().closedReason).toBe(
      'You can report a problem once your order has been delivered.',
    );

    const { shopper, order, lines } = await deliveredOrder();
    // Delivered 49 hours ago: the default window of 48 hours has closed.
    await shop.database.db.execute(sql`update order_events set created_at = now() - interval '49 hours' where status = 'delivered' and order_id = (select id from orders where number = ${order.number})`);
    const late = await report(shopper, order.number, bruised(lines[0]!.lineId, 1));
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/^The 48-hour window to report a problem with this order closed on .+\. Please contact us at hello@mangoshop\.co\.nz\.$/);
    expect(await claimCount(order.number)).toBe(0);

    // A longer window in settings opens it again.
    const settings = (await staff({ method: 'GET', url: '/api/admin/settings' })).json();
    const saved = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, claimWindowHours: 72 } });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      expect((await report(shopper, order.number, bruised(lines[0]!.lineId, 1))).statusCode).toBe(201);
      const tooLong = await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, claimWindowHours: 1000 } });
      expect(tooLong.json().fieldErrors).toMatchObject({ claimWindowHours: 'At most 720 hours (30 days)' });
    } finally {
      await staff({ method: 'PUT', url: '/api/admin/settings', payload: { ...settings, claimWindowHours: 48 } });
    }
  });
});

describe('staff decide claims', () => {
  async function openClaim(outcome: 'refund' | 'replacement' = 'refund', options: Parameters<typeof deliveredOrder>[0] = {}) {
    const delivered = await deliveredOrder(options);
    const response = await report(delivered.shopper, delivered.order.number, bruised(delivered.lines[0]!.lineId, 2, outcome));
    expect(response.statusCode, response.body).toBe(201);
    return { ...delivered, claim: response.json<ClaimView>() };
  }
  const approve = (id: number, payload: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/claims/${id}/approve`, payload });

  it('lists the queue, reviews, and refunds at most what was paid for the boxes, once', async () => {
    const { shopper, order, claim } = await openClaim();
    const queue = (await staff({ method: 'GET', url: '/api/admin/claims' })).json<AdminClaimList>();
    expect(queue.claims.find((row) => row.id === claim.id)).toMatchObject({ status: 'new', orderNumber: order.number, customer: 'Aroha Ngata', boxes: 2, photoCount: 1 });
    expect(queue.counts.new).toBeGreaterThanOrEqual(1);
    expect((await shopper.call({ method: 'GET', url: '/api/admin/claims' })).statusCode).toBe(403);

    const reviewed = await staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/review` });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const detail = reviewed.json<AdminClaimDetail>();
    expect(detail).toMatchObject({ status: 'in_review', refundLimit: 100, order: { number: order.number, status: 'delivered', refunded: 0 }, customer: { email: shopper.user.email } });
    expect(detail.stockForReplacement).toEqual([{ name: 'Claim Alphonso', wanted: 2, inStock: 17 }]);
    expect((await mailsTo(shopper.user.email)).filter((mail) => mail.subject === `Your claim #${claim.id} is being reviewed`)).toHaveLength(1);

    const tooMuch = await approve(claim.id, { resolution: 'refund', amount: 100.01 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().fieldErrors).toEqual({ amount: 'The refund can be at most $100.00: what was paid for these boxes, less refunds already given on the order.' });
    expect((await approve(claim.id, { resolution: 'refund', amount: 10.005 })).json().fieldErrors).toEqual({ amount: 'Refund amount must be in whole cents' });
    expect((await approve(claim.id, { resolution: 'refund' })).statusCode).toBe(400);
    expect(await refundsOf(order.number)).toEqual([]);

    const approved = await approve(claim.id, { resolution: 'refund', amount: 80, note: 'Sorry about the bruises.' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<AdminClaimDetail>()).toMatchObject({ status: 'approved', refund: 80, order: { refunded: 80 }, decidedBy: expect.any(String) });
    expect(await refundsOf(order.number)).toEqual([8000]);
    expect((await mailsTo(shopper.user.email)).filter((mail) => mail.subject === `Your claim #${claim.id} is approved: refund of $80.00`)).toHaveLength(1);
    expect((await approve(claim.id, { resolution: 'refund', amount: 1 })).statusCode).toBe(409);
    expect((await staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/decline`, payload: { reason: 'Changed my mind' } })).statusCode).toBe(409);

    // The shopper sees the decision, and the boxes not yet claimed can still be claimed.
    const mine = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` })).json<OrderClaims>();
    expect(mine.claims[0]).toMatchObject({ id: claim.id, status: 'approved', refund: 80 });
    expect(mine.lines.map((line) => line.claimable)).toEqual([1, 2]);
    const audited = await shop.database.db.select({ action: auditLog.action }).from(auditLog).where(sql`${auditLog.entity} = 'claim' and ${auditLog.entityId} = ${String(claim.id)}`).orderBy(auditLog.id);
    expect(audited.map((row) => row.action)).toEqual(['claim.created', 'claim.in_review', 'claim.approved']);
    const notes = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}` })).json<OrderView>().events.map((event) => event.note);
    expect(notes.slice(-3)).toEqual([`Problem reported (claim #${claim.id}): 2 boxes, bruised`, `Claim #${claim.id} is being reviewed`, `Claim #${claim.id} approved: refund of $80.00`]);

    // Refunding the whole order later gives back only what is left, and the mail says so.
    const refundOrder = await staff({ method: 'POST', url: `/api/admin/orders/${order.number}/status`, payload: { status: 'refunded' } });
    expect(refundOrder.statusCode, refundOrder.body).toBe(200);
    expect(await refundsOf(order.number)).toEqual([8000, 16200]);
    const refundMail = (await mailsTo(shopper.user.email)).find((mail) => mail.subject === `Order ${order.number} has been refunded`);
    expect(refundMail?.text).toContain(`We are refunding the remaining $162.00 of your order ${order.number} ($80.00 was refunded before).`);
    const closed = (await shopper.call({ method: 'GET', url: `/api/orders/${order.number}/claims` })).json<OrderClaims>();
    expect(closed.closedReason).toBe('This order has been refunded. Please contact us if something is still wrong.');
  });

  it('limits a refund on a discounted order to what was paid, less earlier refunds', async () => {
    const promo = await testPromo(shop, { discountType: 'percentage', discountValue: 10 });
    const { claim, order } = await openClaim('refund', { promoCode: promo.code });
    // 2 boxes at $50.00 less their 10% share of the discount.
    expect((await staff({ method: 'GET', url: `/api/admin/claims/${claim.id}` })).json<AdminClaimDetail>().refundLimit).toBe(90);
    expect((await approve(claim.id, { resolution: 'refund', amount: 90.01 })).statusCode).toBe(400);
    expect((await approve(claim.id, { resolution: 'refund', amount: 90 })).statusCode).toBe(200);
    expect(await refundsOf(order.number)).toEqual([9000]);
  });

  it('replaces the boxes with a paid order at no charge that takes stock, or refuses when stock is short', async () => {
    const { shopper, order, claim, first } = await openClaim('replacement');
    const salesToday = async () => (await staff({ method: 'GET', url: '/api/admin/dashboard' })).json<DashboardView>().revenue.today.orders;
    const salesBefore = await salesToday();
    const approved = await approve(claim.id, { resolution: 'replacement' });
    expect(approved.statusCode, approved.body).toBe(200);
    const number = approved.json<AdminClaimDetail>().replacementOrderNumber!;
    expect(number).toMatch(/^MS-\d+$/);
    const replacement = (await shopper.call({ method: 'GET', url: `/api/orders/${number}` })).json<OrderView>();
    expect(replacement).toMatchObject({ status: 'paid', paymentMethod: 'no_charge', total: 0, lines: [{ name: 'Claim Alphonso', quantity: 2, unitPrice: 0 }], shippingAddress: order.shippingAddress });
    expect(await stockOf(shop, first.id)).toBe(15);
    expect(await refundsOf(order.number)).toEqual([]);
    expect((await mailsTo(shopper.user.email)).filter((mail) => mail.subject === `Your claim #${claim.id} is approved: replacement order ${number}`)).toHaveLength(1);
    // A replacement is work to pack, not a sale.
    expect(await salesToday()).toBe(salesBefore);
    // Staff pack and send it like any paid order.
    expect((await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status: 'packed' } })).statusCode).toBe(200);

    const short = await openClaim('replacement', { stock: 4 });
    const refused = await approve(short.claim.id, { resolution: 'replacement' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Only 1 box of Claim Alphonso is in stock, and the replacement needs 2: add stock on Inventory first, or approve a refund instead.');
    expect(await stockOf(shop, short.first.id)).toBe(1);
    expect((await staff({ method: 'GET', url: `/api/admin/claims/${short.claim.id}` })).json<AdminClaimDetail>().status).toBe('new');
    // Test products start with stock but no opening movement: what moved is what the orders took.
    const [moved] = await queryRows<{ n: number }>(shop.database.db, sql`select coalesce(sum(change), 0)::int as n from stock_movements where product_id = ${first.id}`);
    expect(Number(moved!.n)).toBe(15 - 20);
    const state = await shopConsistency(shop.database.db);
    expect(state.halfOrders).toEqual([]);
    expect(state.confirmationMismatch).toEqual([]);
  });

  it('declines only with a reason, which the shopper reads', async () => {
    const { shopper, claim } = await openClaim();
    const noReason = await staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/decline`, payload: { reason: ' ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fieldErrors).toEqual({ reason: 'Give the reason the shopper will read (at least 5 characters)' });
    const declined = await staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/decline`, payload: { reason: 'The photos show mangoes that are ripe, not bruised.' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json<AdminClaimDetail>()).toMatchObject({ status: 'declined', declineReason: 'The photos show mangoes that are ripe, not bruised.' });
    const mail = (await mailsTo(shopper.user.email)).find((one) => one.subject.startsWith(`Your claim #${claim.id} for order`));
    expect(mail?.text).toContain('The photos show mangoes that are ripe, not bruised.');
    expect((await staff({ method: 'GET', url: '/api/admin/claims?status=declined' })).json<AdminClaimList>().claims.some((row) => row.id === claim.id)).toBe(true);
    expect((await staff({ method: 'GET', url: '/api/admin/claims?status=maybe' })).statusCode).toBe(400);
    expect((await staff({ method: 'GET', url: '/api/admin/claims/999999' })).statusCode).toBe(404);
  });
});

describe('races', () => {
  it('two staff approving one claim at once give one refund and one mail', async () => {
    const delivered = await deliveredOrder();
    const created = await report(delivered.shopper, delivered.order.number, bruised(delivered.lines[0]!.lineId, 3));
    const claim = created.json<ClaimView>();
    const answers = await Promise.all(
      [60, 70, 80, 90].map((amount) => staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/approve`, payload: { resolution: 'refund', amount } })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await refundsOf(delivered.order.number)).toHaveLength(1);
    expect((await mailsTo(delivered.shopper.user.email)).filter((mail) => mail.subject.startsWith(`Your claim #${claim.id} is approved`))).toHaveLength(1);
  });

  it('two staff approving one replacement at once make one replacement order', async () => {
    const delivered = await deliveredOrder();
    const claim = (await report(delivered.shopper, delivered.order.number, bruised(delivered.lines[0]!.lineId, 2, 'replacement'))).json<ClaimView>();
    const answers = await Promise.all([1, 2, 3].map(() => staff({ method: 'POST', url: `/api/admin/claims/${claim.id}/approve`, payload: { resolution: 'replacement' } })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await stockOf(shop, delivered.first.id)).toBe(15);
    const replacements = await shop.database.db.select().from(orders).where(eq(orders.idempotencyKey, `claim-${claim.id}`));
    expect(replacements).toHaveLength(1);
  });

  it('claims sent together for one line make one open claim', async () => {
    const { shopper, order, lines } = await deliveredOrder();
    // Two at once: an account's third upload at the same moment is refused before it is read (claim-uploads.test.ts).
    const answers = await Promise.all([1, 2].map(() => report(shopper, order.number, bruised(lines[0]!.lineId, 1))));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await claimCount(order.number)).toBe(1);
    const [row] = await shop.database.db.select().from(claims).innerJoin(orders, eq(orders.id, claims.orderId)).where(eq(orders.number, order.number));
    expect(row?.claims.status).toBe('new');
  });
});
