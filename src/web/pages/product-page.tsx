import { Link, useParams } from 'react-router';
import { shopRules } from '../../contracts/shop-rules';
import { Spinner } from '../components/ui/spinner';
import { PurchasePanel } from '../features/catalog/purchase-panel';
import { stockBadge } from '../features/catalog/stock-badge';
import { useProduct } from '../features/catalog/use-product';
import { formatDate, formatNzd, formatPrice } from '../lib/format';
import { usePageTitle } from '../lib/page-title';

export default function ProductPage() {
  const id = Number(useParams().id);
  const product = useProduct(id);
  usePageTitle(product.data?.name ?? (product.isError || !Number.isInteger(id) ? 'Product not found' : undefined));
  if (product.isPending && Number.isInteger(id)) return <Spinner />;
  if (!product.data) {
    return (
      <section className="py-16 text-center">
        <h1 className="text-3xl font-semibold">Product not found</h1>
        <p className="mt-3 text-ink-500">This mango isn't in our shop right now.</p>
        <Link to="/shop" className="mt-6 inline-block font-semibold text-mango-700 hover:underline">Browse all varieties</Link>
      </section>
    );
  }
  const p = product.data;
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <img src={p.imageUrl} alt={p.name} width={800} height={600} className="aspect-[4/3] w-full rounded-3xl object-cover" />
      <div className="space-y-4">
        <p className="text-sm text-ink-500">{p.category}</p>
        <h1 className="text-4xl font-semibold">{p.name}</h1>
        <p className="text-2xl font-semibold tabular-nums">{formatPrice(p.price)}</p>
        <p className="text-ink-500">{p.boxInfo || shopRules.defaultBoxInfo}</p>
        <p className="inline-block rounded-full bg-mango-50 px-3 py-1 text-sm font-semibold">{stockBadge(p)}</p>
        {p.isPreOrder && p.expectedAvailabilityDate && <p>Expected availability: {formatDate(p.expectedAvailabilityDate)}</p>}
        <PurchasePanel product={p} />
        <p className="leading-relaxed">{p.description}</p>
        <p className="text-sm text-ink-500">Standard shipping {formatNzd(shopRules.defaultShippingCents)} flat anywhere in New Zealand. Delivered fresh in {shopRules.freshDeliveryClaim} from dispatch.</p>
      </div>
    </article>
  );
}
