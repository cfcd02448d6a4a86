import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClaimDetail, ClaimView } from '../../../contracts/claims';
import { blipAfterCommit, coldSettingsAtEachTransaction } from '../../testing/blips';
import { bruised, claimForm, deliveredOrder } from '../../testing/claim-helpers';
import { openStaffShop, type StaffCall, type TestShop } from '../../testing/test-app';

let shop: TestShop;
let staff: StaffCall;
let photo: Buffer;
beforeAll(async () => {
  ({ shop, staff } = await openStaffShop());
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e8a33d' } }).jpeg().toBuffer();
});
afterAll(async () => shop?.close());

/** A delivered order and a claim on its first line, as the shopper sends it. */
async function claimed(outcome: 'refund' | 'replacement' = 'refund') {
  const delivered = await deliveredOrder(shop, staff);
  const sent = await delivered.shopper.call({ method: 'POST', url: `/api/orders/${delivered.order.number}/claims`, ...claimForm(bruised(delivered.lines[0]!.lineId, 1, outcome), [photo]) });
  expect(sent.statusCode, sent.body).toBe(201);
  return { ...delivered, claim: sent.json<ClaimView>() };
}

const decide = (id: number, step: 'review' | 'approve' | 'decline', payload?: Record<string, unknown>) => staff({ method: 'POST', url: `/api/admin/claims/${id}/${step}`, ...(payload ? { payload } : {}) });

describe('claim steps read what they need before their transaction', () => {
  it('records a claim and each decision with the settings cache emptied as the transaction opens', async () => {
    const refund = await claimed();
    const replacement = await claimed('replacement');
    const declined = await claimed();
    const cold = coldSettingsAtEachTransaction(shop);
    try {
      const sent = await refund.shopper.call({ method: 'POST', url: `/api/orders/${refund.order.number}/claims`, ...claimForm(bruised(refund.lines[1]!.lineId, 1), [photo]) });
      expect(sent.statusCode, sent.body).toBe(201);
      const reviewed = await decide(refund.claim.id, 'review');
      expect(reviewed.statusCode, reviewed.body).toBe(200);
      const approved = await decide(refund.claim.id, 'approve', { resolution: 'refund', amount: 20 });
      expect(approved.statusCode, approved.body).toBe(200);
      const replaced = await decide(replacement.claim.id, 'approve', { resolution: 'replacement' });
      expect(replaced.statusCode, replaced.body).toBe(200);
      const refused = await decide(declined.claim.id, 'decline', { reason: 'The photos show mangoes from another shop.' });
      expect(refused.statusCode, refused.body).toBe(200);
    } finally {
      cold.restore();
    }
  });
});

describe('a decision that has committed is answered as done', () => {
  it.each([
    ['review', undefined, 'in_review'],
    ['approve', { resolution: 'refund', amount: 10 }, 'approved'],
    ['approve', { resolution: 'replacement' }, 'approved'],
    ['decline', { reason: 'Outside what the guarantee covers.' }, 'declined'],
  ] as const)('%s %j: a blip right after the commit does not turn it into an error', async (step, payload, status) => {
    const { claim } = await claimed(payload && 'resolution' in payload ? payload.resolution : 'refund');
    const blip = blipAfterCommit(shop, 'select');
    let answer;
    try {
      answer = await decide(claim.id, step, payload);
    } finally {
      blip.restore();
    }
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<AdminClaimDetail>().status).toBe(status);
    // Nothing after the commit asked the shared handle for anything.
    expect(blip.fired()).toBe(false);
  });
});
