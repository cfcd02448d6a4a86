import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlacedOrder } from '../../../contracts/order';
import type { AdminReview, AdminReviewList, MyReviewState, OwnReview, ProductReviews } from '../../../contracts/reviews';
import { queryRows } from '../../db/client';
import { auditLog, reviewPhotos, users } from '../../db/schema';
import { photoForm } from '../../testing/claim-helpers';
import { quickShopper, testProduct } from '../../testing/order-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

// The shop's clock, moved by the tests: Tuesday 1 December 2026, 11:00 am in New Zealand.
const start = Date.parse('2026-11-30T22:00:00Z');
const dayMs = 24 * 60 * 60 * 1000;
let now = start;
let shop: TestShop;
let staff: StaffCall;
let photo: Buffer;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop({ clock: () => new Date(now) }));
  // A phone's photo: with camera details and a place in its EXIF, which must not be kept.
  photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#e8a33d' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9', Artist: 'Aroha at 12 Ponsonby Road' } })
    .toBuffer();
});
afterAll(async () => shop?.close());

type Shopper = Awaited<ReturnType<typeof quickShopper>>;

async function setStatus(number: string, status: string) {
  const shipping = status === 'shipped' ? { carrier: 'nz_post', trackingNumber: `NZP-${number}` } : {};
  const response = await staff({ method: 'POST', url: `/api/admin/orders/${number}/status`, payload: { status, ...shipping } });
  expect(response.statusCode, response.body).toBe(200);
}

/** A shopper's order of a box of each product, taken as far as `until`. */
async function orderOf(shopper: Shopper, productIds: number[], until: 'paid' | 'shipped' | 'delivered' = 'delivered') {
  for (const productId of productIds) await shopper.add(productId, 1);
  const placed = await shopper.order();
  expect(placed.statusCode, placed.body).toBe(201);
  const { number } = placed.json<PlacedOrder>().order;
  const steps = ['paid', 'packed', 'shipped', 'delivered'];
  for (const status of steps.slice(0, steps.indexOf(until) + 1)) await setStatus(number, status);
  return number;
}

const review = { rating: 4, title: 'Sweet and fragrant', body: 'Ripened in three days on the bench, every one of them sweet.' };
const post = (shopper: Shopper | null, productId: number, value: unknown, photos: Buffer[] = []) => {
  const form = photoForm('review', value, photos);
  const request = { method: 'POST' as const, url: `/api/products/${productId}/reviews`, ...form };
  return shopper ? shopper.call(request) : shop.app.inject(request);
};
const published = async (productId: number, page = 1) => {
  const response = await shop.app.inject({ method: 'GET', url: `/api/products/${productId}/reviews?page=${page}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ProductReviews>();
};
const audits = (action: string, entityId: number) =>
  queryRows<{ before: unknown; after: unknown }>(shop.database.db, sql`select before, after from ${auditLog} where ${auditLog.action} = ${action} and ${auditLog.entityId} = ${String(entityId)} order by id`);

describe('who may review', () => {
  it('refuses with 403 anyone whose order with the product was not delivered or collected, and a second review with 409', async () => {
    const product = await testProduct(shop, { name: 'Review Kesar' });
    const other = await testProduct(shop, { name: 'Review Other' });
    const stranger = await quickShopper(shop, 'stranger');
    const waiting = await quickShopper(shop, 'waiting');
    const elsewhere = await quickShopper(shop, 'elsewhere');
    const buyer = await quickShopper(shop, 'buyer');
    await orderOf(waiting, [product.id], 'shipped');
    await orderOf(elsewhere, [other.id]);
    await orderOf(buyer, [product.id]);

    for (const who of [null, stranger, waiting, elsewhere]) {
      const refused = await post(who, product.id, review, [photo]);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json<{ message: string }>().message).toMatch(/^Only shoppers whose order with this mango has been delivered or collected can review it\./);
    }
    const mine = await waiting.call({ method: 'GET', url: `/api/products/${product.id}/reviews/mine` });
    expect(mine.json<MyReviewState>()).toMatchObject({ canReview: false, review: null });
    expect((await buyer.call({ method: 'GET', url: `/api/products/${product.id}/reviews/mine` })).json<MyReviewState>()).toEqual({ canReview: true, reason: null, review: null });

    const written = await post(buyer, product.id, review);
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json<OwnReview>()).toMatchObject({ rating: 4, title: 'Sweet and fragrant', author: 'Aroha N.', editedAt: null, photos: [], hiddenReason: null });
    const again = await post(buyer, product.id, { ...review, rating: 1 });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('You have already reviewed this mango: you can edit your review instead.');
    expect(await published(product.id)).toMatchObject({ average: 4, count: 1, distribution: [0, 0, 0, 1, 0] });
  });

  it('keeps one review of two sent at once', async () => {
    const product = await testProduct(shop, { name: 'Review Race' });
    const buyer = await quickShopper(shop, 'racer');
    await orderOf(buyer, [product.id]);
    // Two at once: as many as one shopper may be sending (a third waits its turn with a 429).
    const answers = await Promise.all(Array.from({ length: 2 }, (_, index) => post(buyer, product.id, { ...review, rating: index + 1 })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect((await published(product.id)).count).toBe(1);
  });

  it('checks each field and the photos, and keeps nothing of a refused review', async () => {
    const product = await testProduct(shop, { name: 'Review Fields' });
    const buyer = await quickShopper(shop, 'fields');
    await orderOf(buyer, [product.id]);
    const refusals: Array<[unknown, Buffer[], string, string]> = [
      [{ ...review, rating: 0 }, [], 'rating', 'Choose a rating from 1 to 5 stars'],
      [{ ...review, rating: 4.5 }, [], 'rating', 'Choose a rating from 1 to 5 stars'],
      [{ ...review, rating: 6 }, [], 'rating', 'Choose a rating from 1 to 5 stars'],
      [{ ...review, body: '   ' }, [], 'body', 'Tell other shoppers about the mangoes'],
      [{ ...review, body: 'x'.repeat(2001) }, [], 'body', 'Review must be at most 2000 characters'],
      [{ ...review, title: 't'.repeat(101) }, [], 'title', 'Title must be at most 100 characters'],
      [{ ...review, stars: 5 }, [], 'review', 'Unrecognized key: "stars"'],
      ['not json', [], 'review', 'Tell other shoppers about the mangoes'],
      [review, [photo, photo, photo, photo], 'photos', 'Add at most 3 photos'],
      [review, [Buffer.from('GIF89a not a photo')], 'photos', 'Each photo must be a JPEG, PNG or WebP image'],
    ];
    for (const [value, photos, field, message] of refusals) {
      const refused = await post(buyer, product.id, value, photos);
      expect(refused.statusCode, `${field}: ${refused.body}`).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors[field], field).toBe(message);
    }
    expect((await published(product.id)).count).toBe(0);
    expect((await buyer.call({ method: 'GET', url: `/api/products/${product.id}/reviews/mine` })).json<MyReviewState>().canReview).toBe(true);
  });
});

describe('photos, edits and moderation', () => {
  it('keeps photos re-encoded without metadata, private until staff approve them', async () => {
    const product = await testProduct(shop, { name: 'Review Photos' });
    const buyer = await quickShopper(shop, 'photos');
    await orderOf(buyer, [product.id]);
    const written = await post(buyer, product.id, review, [photo, photo]);
    expect(written.statusCode, written.body).toBe(201);
    const own = written.json<OwnReview>();
    expect(own.photos.map((p) => p.status)).toEqual(['pending', 'pending']);

    const [stored] = await shop.database.db.select({ bytes: reviewPhotos.bytes }).from(reviewPhotos).where(eq(reviewPhotos.reviewId, own.id)).limit(1);
    const metadata = await sharp(stored!.bytes).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(stored!.bytes.includes(Buffer.from('Ponsonby'))).toBe(false);

    // The text is published at once, without its waiting photos; those only the writer and staff see.
    expect((await published(product.id)).reviews[0]).toMatchObject({ id: own.id, photos: [] });
    const url = own.photos[0]!.url;
    expect((await shop.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await buyer.call({ method: 'GET', url })).headers['cache-control']).toBe('private, no-store');
    expect((await staff({ method: 'GET', url })).statusCode).toBe(200);

    const list = await staff({ method: 'GET', url: '/api/admin/reviews?filter=attention' });
    expect(list.json<AdminReviewList>().reviews.map((r) => r.id)).toContain(own.id);
    const approved = await staff({ method: 'POST', url: `/api/admin/reviews/${own.id}/photos/1/approve` });
    expect(approved.statusCode, approved.body).toBe(200);
    const declinedWithout = await staff({ method: 'POST', url: `/api/admin/reviews/${own.id}/photos/2/decline`, payload: {} });
    expect(declinedWithout.statusCode).toBe(400);
    const declined = await staff({ method: 'POST', url: `/api/admin/reviews/${own.id}/photos/2/decline`, payload: { reason: 'personal_information' } });
    expect(declined.json<AdminReview>().photos.map((p) => [p.status, p.declinedReason])).toEqual([
      ['approved', null],
      ['declined', 'personal_information'],
    ]);
    expect((await published(product.id)).reviews[0]!.photos).toEqual([{ url }]);
    const open = await shop.app.inject({ method: 'GET', url });
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toBe('image/jpeg');
    expect(open.headers['cache-control']).toBe('public, no-cache');
    const unchanged = await shop.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(open.headers.etag) } });
    expect(unchanged.statusCode).toBe(304);
    // Declined later (a face in the background): a copy kept anywhere is refused when next asked about.
    await staff({ method: 'POST', url: `/api/admin/reviews/${own.id}/photos/1/decline`, payload: { reason: 'personal_information' } });
    expect((await shop.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(open.headers.etag) } })).statusCode).toBe(404);
    await staff({ method: 'POST', url: `/api/admin/reviews/${own.id}/photos/1/approve` });
    expect((await shop.app.inject({ method: 'GET', url: own.photos[1]!.url })).statusCode).toBe(404);
    expect((await staff({ method: 'GET', url: '/api/admin/reviews?filter=attention' })).json<AdminReviewList>().reviews.map((r) => r.id)).not.toContain(own.id);
    expect(await audits('review.photo_declined', own.id)).toEqual([
      { before: { position: 2, status: 'pending' }, after: { position: 2, status: 'declined', declinedReason: 'personal_information' } },
      { before: { position: 1, status: 'approved' }, after: { position: 1, status: 'declined', declinedReason: 'personal_information' } },
    ]);
  });

  it('lets the writer edit (shown edited) or take it down, and no one else', async () => {
    const product = await testProduct(shop, { name: 'Review Edits' });
    const buyer = await quickShopper(shop, 'editor');
    const other = await quickShopper(shop, 'other');
    await orderOf(buyer, [product.id]);
    const own = (await post(buyer, product.id, review)).json<OwnReview>();
    const edit = { rating: 2, title: '', body: 'Two of the six never ripened.' };
    expect((await other.call({ method: 'PUT', url: `/api/products/${product.id}/reviews/mine`, payload: edit })).statusCode).toBe(404);
    const edited = await buyer.call({ method: 'PUT', url: `/api/products/${product.id}/reviews/mine`, payload: edit });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<OwnReview>()).toMatchObject({ id: own.id, rating: 2, title: null, body: 'Two of the six never ripened.' });
    const shown = (await published(product.id)).reviews[0]!;
    expect(shown.editedAt).not.toBeNull();
    expect((await published(product.id)).average).toBe(2);
    expect(await audits('review.edited', own.id)).toHaveLength(1);
    expect((await buyer.call({ method: 'DELETE', url: `/api/products/${product.id}/reviews/mine` })).statusCode).toBe(204);
    expect(await published(product.id)).toMatchObject({ count: 0, average: null, reviews: [] });
  });

  it('hides a review only for a listed reason, never for its rating, audited, and replies in public', async () => {
    const product = await testProduct(shop, { name: 'Review Hide' });
    const low = await quickShopper(shop, 'low');
    const high = await quickShopper(shop, 'high');
    await orderOf(low, [product.id]);
    await orderOf(high, [product.id]);
    const lowReview = (await post(low, product.id, { rating: 1, body: 'Bland and stringy, sadly.' })).json<OwnReview>();
    await post(high, product.id, { rating: 5, body: 'Best mangoes this side of Mumbai.' });
    expect(await published(product.id)).toMatchObject({ count: 2, average: 3 });

    for (const payload of [{}, { reason: 'low_rating' }, { reason: 'negative' }, { reason: '' }]) {
      const refused = await staff({ method: 'POST', url: `/api/admin/reviews/${lowReview.id}/hide`, payload });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors.reason).toBe(
        'Choose why: abusive or offensive, personal information, or not about the product. A review is never hidden for its rating.',
      );
    }
    expect((await low.call({ method: 'POST', url: `/api/admin/reviews/${lowReview.id}/hide`, payload: { reason: 'abuse' } })).statusCode).toBe(403);
    expect((await published(product.id)).count).toBe(2);

    const hidden = await staff({ method: 'POST', url: `/api/admin/reviews/${lowReview.id}/hide`, payload: { reason: 'not_about_product' } });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(await published(product.id)).toMatchObject({ count: 1, average: 5 });
    expect((await low.call({ method: 'GET', url: `/api/products/${product.id}/reviews/mine` })).json<MyReviewState>().review).toMatchObject({ hiddenReason: 'not_about_product' });
    expect(await audits('review.hidden', lowReview.id)).toEqual([{ before: { hiddenReason: null }, after: { hiddenReason: 'not_about_product' } }]);
    expect((await staff({ method: 'GET', url: '/api/admin/reviews?filter=hidden' })).json<AdminReviewList>().reviews.map((r) => r.id)).toContain(lowReview.id);
    // Hidden, it cannot be deleted and written again (it would publish at once); edited, staff look again.
    const deleted = await low.call({ method: 'DELETE', url: `/api/products/${product.id}/reviews/mine` });
    expect(deleted.statusCode).toBe(409);
    const toCheck = async () => (await staff({ method: 'GET', url: '/api/admin/reviews?filter=attention' })).json<AdminReviewList>().reviews.map((r) => r.id);
    expect(await toCheck()).not.toContain(lowReview.id);
    expect((await low.call({ method: 'PUT', url: `/api/products/${product.id}/reviews/mine`, payload: { rating: 1, body: 'Bland and stringy, sadly. Not what the page promised.' } })).statusCode).toBe(200);
    expect(await toCheck()).toContain(lowReview.id);
    expect((await published(product.id)).count).toBe(1);

    expect((await staff({ method: 'POST', url: `/api/admin/reviews/${lowReview.id}/show` })).statusCode).toBe(200);
    expect((await staff({ method: 'PUT', url: `/api/admin/reviews/${lowReview.id}/reply`, payload: { body: '' } })).statusCode).toBe(400);
    const replied = await staff({ method: 'PUT', url: `/api/admin/reviews/${lowReview.id}/reply`, payload: { body: 'Sorry to hear it: we have e-mailed you about a replacement box.' } });
    expect(replied.statusCode, replied.body).toBe(200);
    const back = await published(product.id);
    expect(back).toMatchObject({ count: 2, average: 3 });
    expect(back.reviews.find((r) => r.id === lowReview.id)!.reply).toMatchObject({ body: 'Sorry to hear it: we have e-mailed you about a replacement box.' });
  });

  it('pages published reviews newest first, 10 to a page', async () => {
    const product = await testProduct(shop, { name: 'Review Pages', stock: 100 });
    const ids: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const buyer = await quickShopper(shop, 'pager');
      await orderOf(buyer, [product.id]);
      ids.push((await post(buyer, product.id, { rating: (index % 5) + 1, body: `Review number ${index}` })).json<OwnReview>().id);
    }
    const first = await published(product.id);
    const second = await published(product.id, 2);
    expect(first.count).toBe(12);
    expect(first.average).toBe(2.8);
    expect([...first.reviews, ...second.reviews].map((r) => r.id)).toEqual([...ids].reverse());
    expect(second.reviews).toHaveLength(2);
    expect((await shop.app.inject({ method: 'GET', url: `/api/products/${product.id}/reviews?page=0` })).statusCode).toBe(400);
    expect((await shop.app.inject({ method: 'GET', url: '/api/products/99999999/reviews' })).statusCode).toBe(404);
  });
});

describe('"How were your mangoes?"', () => {
  const invitesTo = async (to: string) => (await shop.mail()).filter((mail) => mail.to === to && mail.subject === 'How were your mangoes?');
  const sweep = () => shop.app.services.reviewInvites.sendDue();

  it('goes once, the set days after the order was delivered, listing what is still to review, with a one-click opt-out', async () => {
    now = start;
    const kept = await testProduct(shop, { name: 'Invite Kesar' });
    const reviewed = await testProduct(shop, { name: 'Invite Alphonso' });
    const buyer = await quickShopper(shop, 'invited');
    await orderOf(buyer, [kept.id, reviewed.id]);
    await post(buyer, reviewed.id, review);
    const invites = () => invitesTo(buyer.user.email);

    now = start + 2 * dayMs;
    await sweep();
    now = start + 3 * dayMs - 2 * 60 * 60 * 1000; // the third day, 9 am NZ: not before 10
    await sweep();
    expect(await invites()).toHaveLength(0);
    now = start + 3 * dayMs;
    await Promise.all([sweep(), sweep()]);
    await sweep();
    const mails = await invites();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe(buyer.user.email);
    expect(mail.text).toContain(`Review Invite Kesar`);
    expect(mail.text).toContain(`/product/${kept.id}?review=write#write-review`);
    expect(mail.text).not.toContain('Invite Alphonso');
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const optOut = /<(http[^>]+)>/.exec(mail.headers!['List-Unsubscribe']!)![1]!;
    const path = new URL(optOut).pathname + new URL(optOut).search;
    const page = await shop.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No more review requests?');
    const [stillOn] = await shop.database.db.select({ off: users.reviewMailOffAt }).from(users).where(eq(users.id, buyer.user.id));
    expect(stillOn!.off).toBeNull();
    const posted = await shop.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example' }, payload: 'List-Unsubscribe=One-Click' });
    expect(posted.statusCode, posted.body).toBe(200);
    const [off] = await shop.database.db.select({ off: users.reviewMailOffAt }).from(users).where(eq(users.id, buyer.user.id));
    expect(off!.off).not.toBeNull();

    // Their next order is not asked about.
    now = start;
    await orderOf(buyer, [kept.id]);
    now = start + 4 * dayMs;
    await sweep();
    expect(await invites()).toHaveLength(1);
  });
});
