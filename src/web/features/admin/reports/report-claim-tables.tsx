import { type SalesReport, unknownGrowerLabel } from '../../../../contracts/reports';
import { type ReportFilters, reportCsvUrl } from '../shared/reports-api';
import { ReportEmpty, ReportSection } from './report-section';
import { ReportTable } from './report-table';

/** A share of boxes claimed, "12.5%"; a dash when no boxes were packed to compare with. */
const shareText = (percent: number | null) => (percent === null ? '—' : `${percent.toFixed(1)}%`);

const counted = 'Boxes packed for orders placed in this range (replacements included, boxes put back by a cancel left out) and the claims made about them.';

/** Freshness claims per batch and per grower, worst first, so the shop sees whose fruit disappoints. */
export function ReportClaimTables({ report, filters }: { report: SalesReport; filters: ReportFilters }) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <ReportSection title="Claims by batch" csvUrl={reportCsvUrl('claims-by-batch', filters)}>
        {report.claimsByBatch.length === 0 ? (
          <ReportEmpty>No boxes were packed from a batch for orders placed in this range.</ReportEmpty>
        ) : (
          <>
            <p className="text-sm text-ink-500">{counted} A claim over two batches counts in each.</p>
            <ReportTable
              caption="Boxes packed, claims and boxes claimed per batch, highest claimed share first"
              rows={report.claimsByBatch}
              rowKey={(row) => (row.batchId === null ? `unknown-${row.productId ?? row.product}` : String(row.batchId))}
              columns={[
                { header: 'Batch', cell: (row) => row.label },
                { header: 'Product', cell: (row) => row.product },
                { header: 'Grower', cell: (row) => row.grower ?? unknownGrowerLabel },
                { header: 'Boxes packed', cell: (row) => row.boxesPacked, numeric: true },
                { header: 'Claims', cell: (row) => row.claims, numeric: true },
                { header: 'Boxes claimed', cell: (row) => row.boxesClaimed, numeric: true },
                { header: 'Claimed share', cell: (row) => shareText(row.claimedPercent), numeric: true },
              ]}
            />
          </>
        )}
      </ReportSection>
      <ReportSection title="Claims by grower" csvUrl={reportCsvUrl('claims-by-grower', filters)}>
        {report.claimsByGrower.length === 0 ? (
          <ReportEmpty>No boxes were packed for orders placed in this range.</ReportEmpty>
        ) : (
          <>
            <p className="text-sm text-ink-500">{counted} {unknownGrowerLabel} holds batches with no grower recorded and boxes packed before batches were recorded.</p>
            <ReportTable
              caption="Batches, boxes packed, claims and boxes claimed per grower, highest claimed share first"
              rows={report.claimsByGrower}
              rowKey={(row) => row.grower ?? ''}
              columns={[
                { header: 'Grower', cell: (row) => row.grower ?? unknownGrowerLabel },
                { header: 'Batches', cell: (row) => row.batches, numeric: true },
                { header: 'Boxes packed', cell: (row) => row.boxesPacked, numeric: true },
                { header: 'Claims', cell: (row) => row.claims, numeric: true },
                { header: 'Boxes claimed', cell: (row) => row.boxesClaimed, numeric: true },
                { header: 'Claimed share', cell: (row) => shareText(row.claimedPercent), numeric: true },
              ]}
            />
          </>
        )}
      </ReportSection>
    </div>
  );
}
