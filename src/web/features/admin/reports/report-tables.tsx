import type { SalesReport } from '../../../../contracts/reports';
import { formatDate, formatPrice } from '../../../lib/format';
import { type ReportFilters, reportCsvUrl } from '../shared/reports-api';
import { ReportEmpty, ReportSection } from './report-section';
import { ReportTable } from './report-table';

/** Top products, revenue by region, promo usage and pre-orders for the chosen range, each with its CSV. */
export function ReportTables({ report, filters }: { report: SalesReport; filters: ReportFilters }) {
  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <ReportSection title="Top products" csvUrl={reportCsvUrl('top-products', filters)}>
        {report.topProducts.length === 0 ? (
          <ReportEmpty>No boxes sold in this range.</ReportEmpty>
        ) : (
          <ReportTable
            caption="Products by revenue, at the price sold, before order discounts"
            rows={report.topProducts}
            rowKey={(row) => `${row.productId ?? ''}-${row.name}`}
            columns={[
              { header: 'Product', cell: (row) => row.name },
              { header: 'Boxes', cell: (row) => row.units, numeric: true },
              { header: 'Revenue', cell: (row) => formatPrice(row.revenue), numeric: true },
            ]}
          />
        )}
      </ReportSection>
      <ReportSection title="Revenue by region" csvUrl={reportCsvUrl('regions', filters)}>
        {report.regions.length === 0 ? (
          <ReportEmpty>No orders shipped to any region in this range.</ReportEmpty>
        ) : (
          <ReportTable
            caption="Orders and revenue by shipping region"
            rows={report.regions}
            rowKey={(row) => row.region}
            columns={[
              { header: 'Region', cell: (row) => row.region },
              { header: 'Orders', cell: (row) => row.orders, numeric: true },
              { header: 'Revenue', cell: (row) => formatPrice(row.revenue), numeric: true },
              { header: 'GST', cell: (row) => formatPrice(row.gst), numeric: true },
            ]}
          />
        )}
      </ReportSection>
      <ReportSection title="Promo usage" csvUrl={reportCsvUrl('promos', filters)}>
        {report.promos.length === 0 ? (
          <ReportEmpty>No promo codes were used in this range.</ReportEmpty>
        ) : (
          <ReportTable
            caption="Orders, discount given and revenue per promo code"
            rows={report.promos}
            rowKey={(row) => row.code}
            columns={[
              { header: 'Code', cell: (row) => <span className="font-mono">{row.code}</span> },
              { header: 'Orders', cell: (row) => row.orders, numeric: true },
              { header: 'Discount', cell: (row) => formatPrice(row.discount), numeric: true },
              { header: 'Revenue', cell: (row) => formatPrice(row.revenue), numeric: true },
            ]}
          />
        )}
      </ReportSection>
      <ReportSection title="Pre-orders by expected date" csvUrl={reportCsvUrl('pre-orders', filters)}>
        {report.preOrders.length === 0 ? (
          <ReportEmpty>No pre-orders were placed in this range.</ReportEmpty>
        ) : (
          <ReportTable
            caption="Boxes pre-ordered per product and expected availability date, unpaid orders included"
            rows={report.preOrders}
            rowKey={(row) => `${row.productId ?? row.name}-${row.expectedAvailabilityDate ?? ''}`}
            columns={[
              { header: 'Product', cell: (row) => row.name },
              { header: 'Expected', cell: (row) => (row.expectedAvailabilityDate ? formatDate(row.expectedAvailabilityDate) : 'No date yet') },
              { header: 'Boxes', cell: (row) => row.boxes, numeric: true },
              { header: 'Orders', cell: (row) => row.orders, numeric: true },
            ]}
          />
        )}
      </ReportSection>
    </div>
  );
}
