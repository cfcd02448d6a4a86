import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SalesReport } from '../../../../contracts/reports';
import { ReportClaimTables } from './report-claim-tables';

const figures = { boxesPacked: 6, claims: 1, boxesClaimed: 1, claimedPercent: 16.7 };
const report = {
  claimsByBatch: [
    { batchId: 12, label: 'Batch 12, best before 3 December 2026', productId: 4, product: 'Kensington Pride', grower: 'Kerikeri Orchard', ...figures },
    { batchId: null, label: 'Batch unknown', productId: 5, product: 'Keitt', grower: null, boxesPacked: 0, claims: 1, boxesClaimed: 1, claimedPercent: null },
  ],
  claimsByGrower: [
    { grower: 'Kerikeri Orchard', batches: 1, ...figures, claimedPercent: 40 },
    { grower: null, batches: 0, boxesPacked: 0, claims: 1, boxesClaimed: 1, claimedPercent: null },
  ],
} as unknown as SalesReport;

describe('the claims tables of the reports screen', () => {
  it('shows each batch and grower with its claimed share to one decimal, and unknown ones by name', () => {
    const html = renderToString(<ReportClaimTables report={report} filters={{ from: '2026-03-02', to: '2026-03-10' }} />);
    expect(html).toContain('Batch 12, best before 3 December 2026');
    expect(html).toContain('16.7%');
    expect(html).toContain('40.0%');
    expect(html).toContain('Batch unknown');
    expect(html.match(/Grower unknown/g)?.length).toBeGreaterThanOrEqual(2);
    expect(html).toContain('href="/api/admin/reports/claims-by-grower.csv?from=2026-03-02&amp;to=2026-03-10"');
  });

  it('says so when no boxes were packed in the range', () => {
    const html = renderToString(<ReportClaimTables report={{ ...report, claimsByBatch: [], claimsByGrower: [] }} filters={{}} />);
    expect(html).toContain('No boxes were packed from a batch for orders placed in this range.');
  });
});
