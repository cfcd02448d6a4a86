import { centsToDollars } from '../../../../contracts/money';
import { shopRules } from '../../../../contracts/shop-rules';
import { Button } from '../../../components/ui/button';
import { trackPageView } from '../../../lib/analytics';
import { type TrackedProduct, trackAddToCart, trackInitiateCheckout, trackPurchase, trackViewContent } from '../../../lib/analytics-events';

const alphonso = { id: 1, name: 'Alphonso Mangoes', price: 64.99 };
const kesar = { id: 2, name: 'Kesar Mangoes', price: 59.99 };
const cartLines: TrackedProduct[] = [
  { ...alphonso, quantity: 2 },
  { ...kesar, quantity: 1 },
];
const linesCents = cartLines.reduce((sum, line) => sum + Math.round(line.price * 100) * line.quantity, 0);
/** What the sample order costs with standard shipping, in dollars. */
const orderValue = centsToDollars(linesCents + shopRules.defaultShippingCents);

export type PixelTool = 'GA4' | 'Meta';

export interface PixelEvent {
  /** The spec 7 events this button sends, and where each goes. */
  events: Array<{ name: string; tool: PixelTool }>;
  label: string;
  /** The sample the analytics module is called with (prices in NZD). */
  sample: unknown;
  fire: () => void;
}

const ga = (name: string) => ({ name, tool: 'GA4' as const });
const meta = (name: string) => ({ name, tool: 'Meta' as const });
let firing = 0;

/** One button per storefront event, each sending it through the analytics module the storefront uses. */
export const pixelEvents: PixelEvent[] = [
  {
    label: 'Page view',
    events: [ga('page_view'), meta('PageView')],
    sample: { path: '/admin/pixel-test?event=n' },
    // A repeat of the same path is not a new view, so every test view gets a path of its own.
    fire: () => trackPageView(`/admin/pixel-test?event=${(firing += 1)}`),
  },
  { label: 'View content', events: [meta('ViewContent')], sample: alphonso, fire: () => trackViewContent(alphonso) },
  { label: 'Add to cart', events: [meta('AddToCart')], sample: { product: alphonso, quantity: 2 }, fire: () => trackAddToCart(alphonso, 2) },
  { label: 'Initiate checkout', events: [meta('InitiateCheckout')], sample: { products: cartLines, value: orderValue }, fire: () => trackInitiateCheckout(cartLines, orderValue) },
  {
    label: 'Purchase',
    events: [ga('purchase'), meta('Purchase')],
    sample: { orderId: 'TEST-…', value: orderValue, products: cartLines },
    // Each order is reported once, so every test purchase has an order id of its own.
    fire: () => trackPurchase({ orderId: `TEST-${Date.now().toString(36)}`, value: orderValue, products: cartLines }),
  },
];

export function PixelEventButtons({ onFire }: { onFire: (event: PixelEvent) => void }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {pixelEvents.map((event) => (
        <li key={event.label} className="grid content-start gap-2 rounded-xl bg-cream-50 p-4 ring-1 ring-mango-50">
          <Button onClick={() => onFire(event)}>
            Fire {event.label.toLowerCase()}
          </Button>
          <span className="text-sm text-ink-500">
            Sends{' '}
            {event.events.map(({ name, tool }, index) => (
              <span key={name}>
                {index > 0 && ' and '}
                <code className="text-ink-900">{name}</code> ({tool})
              </span>
            ))}
          </span>
        </li>
      ))}
    </ul>
  );
}
