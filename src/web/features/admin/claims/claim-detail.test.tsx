import { QueryClientProvider } from '../../../lib/query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AdminClaimDetail as Detail } from '../../../../contracts/claims';
import { makeQueryClient } from '../../../lib/query-client';
import { AdminClaimDetail } from './claim-detail';
import { staffClaimKey } from './claims-admin-api';

const claim: Detail = {
  id: 7,
  status: 'new',
  reason: 'bruised',
  description: 'Bruised on one side.',
  outcome: 'refund',
  lines: [
    {
      lineId: 1,
      name: 'Kensington Pride',
      quantity: 3,
      unitPrice: 50,
      batches: [
        { batchId: 12, label: 'Batch 12, best before 3 December 2026', grower: 'Kerikeri Orchard', boxes: 2 },
        { batchId: 14, label: 'Batch 14 (dates unknown)', grower: null, boxes: 1 },
      ],
    },
    { lineId: 2, name: 'Keitt', quantity: 1, unitPrice: 40, batches: [] },
  ],
  photoUrls: [],
  createdAt: '2026-03-05T00:00:00.000Z',
  decidedAt: null,
  refund: null,
  refundState: null,
  replacementOrderNumber: null,
  declineReason: null,
  order: { number: 'MS-1001', status: 'delivered', total: 202, refunded: 0, deliveredAt: '2026-03-04T00:00:00.000Z', placedAt: '2026-03-01T00:00:00.000Z', refundBy: 'transfer' },
  customer: { id: 3, name: 'Aroha Ngata', email: 'aroha@example.nz' },
  earlierClaims: [],
  refundLimit: 190,
  stockForReplacement: [],
  reviewedBy: null,
  decidedBy: null,
};

describe('a claim as staff read it', () => {
  it('shows beside each line the batches its boxes came from and their grower', () => {
    const client = makeQueryClient();
    client.setQueryData(staffClaimKey(claim.id), claim);
    const html = renderToString(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AdminClaimDetail id={claim.id} onBack={() => {}} />
        </MemoryRouter>
      </QueryClientProvider>,
    ).replaceAll('<!-- -->', '');
    expect(html).toContain('<li>2 from Batch 12, best before 3 December 2026 · Kerikeri Orchard</li><li>1 from Batch 14 (dates unknown) · Grower unknown</li>');
    expect(html).toContain('Batch unknown: packed before batches were recorded');
  });
});
