import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { useBrowserValue } from '../../lib/browser-value';
import { useRenderDay, useRenderTime } from '../../lib/render-time';
import { nzToday } from '../../../contracts/dates';
import { useProducts } from '../catalog/use-products';
import { useSeasonBoxes } from './season-box-api';
import { SeasonBoxCard } from './season-box-card';
import { offersSeasonBox } from './season-box-terms';

/** The account's season boxes, live ones first; with none, the varieties offered as one. */
export function MySeasonBoxes() {
  const query = useSeasonBoxes();
  const renderedAt = useRenderTime();
  const today = useBrowserValue(() => nzToday(renderedAt + performance.now()), useRenderDay());
  useScrolledToOnceLoaded(query.isSuccess);
  if (query.isPending) return <Spinner compact label="Loading your season boxes..." />;
  if (query.isError) return <p role="alert" className="text-danger-600">Your season boxes could not be loaded. Please try again in a moment.</p>;
  if (!query.data.length) return <NoSeasonBox today={today} />;
  return (
    <ul className="grid gap-4" aria-label="Your season boxes">
      {query.data.map((view) => (
        <SeasonBoxCard key={view.id} view={view} today={today} />
      ))}
    </ul>
  );
}

function NoSeasonBox({ today }: { today: string }) {
  const products = useProducts();
  const offered = (products.data ?? []).filter((product) => offersSeasonBox(product, today));
  return (
    <div className="grid gap-2 text-ink-500">
      <p>You have no season box yet: mangoes every week or fortnight on the day you choose, until you cancel or the season ends.</p>
      {products.isPending ? null : offered.length ? (
        <p>
          Offered as a season box:{' '}
          {offered.map((product, index) => (
            <span key={product.id}>
              {index > 0 && ', '}
              <Link to={`/product/${product.id}#season-box`} className="font-semibold text-mango-700 hover:underline">
                {product.name}
              </Link>
            </span>
          ))}
        </p>
      ) : (
        <p>
          Look for Season box on a variety’s page in{' '}
          <Link to="/shop" className="font-semibold text-mango-700 hover:underline">
            the shop
          </Link>
          .
        </p>
      )}
    </div>
  );
}

/**
 * A link to /account#season-box (the sign-up's confirmation and e-mail) lands on the panel: the
 * browser scrolled to it before the orders above it loaded and pushed it down, so it is brought
 * into view again once its own list is drawn.
 */
function useScrolledToOnceLoaded(loaded: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!loaded || done.current) return;
    done.current = true;
    if (window.location.hash === '#season-box') document.getElementById('season-box')?.scrollIntoView({ block: 'start' });
  }, [loaded]);
}
