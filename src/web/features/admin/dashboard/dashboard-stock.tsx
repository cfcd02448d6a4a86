import { Link } from 'react-router';
import type { DashboardView } from '../../../../contracts/reports';

/** Products on sale that are running low (at or under the settings' threshold) or out of stock. */
export function DashboardStock({ view }: { view: DashboardView }) {
  if (view.lowStock.length === 0 && view.outOfStock.length === 0) return <p className="text-ink-500">Every product on sale has more than {view.lowStockThreshold} boxes.</p>;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <p className="text-sm text-ink-500 sm:col-span-2">Products on sale with {view.lowStockThreshold} boxes or fewer (the threshold in Settings), and those with none.</p>
      <div className="grid content-start gap-2">
        <h3 className="font-semibold">Out of stock ({view.outOfStock.length})</h3>
        {view.outOfStock.length === 0 ? (
          <p className="text-sm text-ink-500">None.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {view.outOfStock.map((product) => (
              <li key={product.productId} className="flex justify-between gap-3 rounded-lg bg-cream-50 px-3 py-2">
                {product.name}
                <span className="font-semibold text-danger-600">0</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="grid content-start gap-2">
        <h3 className="font-semibold">Low stock ({view.lowStock.length})</h3>
        {view.lowStock.length === 0 ? (
          <p className="text-sm text-ink-500">None.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {view.lowStock.map((product) => (
              <li key={product.productId} className="flex justify-between gap-3 rounded-lg bg-cream-50 px-3 py-2">
                {product.name}
                <span className="font-semibold tabular-nums text-mango-700">{product.stock}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <Link to="/admin/inventory" className="text-sm font-semibold text-mango-700 hover:underline sm:col-span-2">
        Adjust stock in Inventory
      </Link>
    </div>
  );
}

/** Boxes pre-ordered (unpaid orders included) against each pre-order product's limit, and how many are allocated or wait. */
export function DashboardPreOrders({ demand }: { demand: DashboardView['preOrderDemand'] }) {
  if (demand.length === 0) return <p className="text-ink-500">No pre-order products.</p>;
  return (
    <ul className="grid gap-3">
      {demand.map((product) => {
        const share = product.limit ? Math.min(100, Math.round((product.preOrdered / product.limit) * 100)) : 0;
        return (
          <li key={product.productId} className="grid gap-1.5 text-sm">
            <div className="flex justify-between gap-3">
              <span className="font-medium">{product.name}</span>
              <span className="tabular-nums">
                {product.preOrdered} {product.limit === null ? 'boxes (no limit)' : `of ${product.limit} boxes`}
              </span>
            </div>
            <p className="text-ink-500 tabular-nums">
              {product.allocated} allocated · {product.waiting} waiting
            </p>
            {product.limit !== null && (
              <div
                role="progressbar"
                aria-label={`${product.name} pre-orders`}
                aria-valuemin={0}
                aria-valuemax={product.limit}
                aria-valuenow={product.preOrdered}
                className="h-2 overflow-hidden rounded-full bg-mango-50">
                <div className={`h-full rounded-full ${share >= 100 ? 'bg-blush-500' : 'bg-mango-500'}`} style={{ width: `${share}%` }} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
