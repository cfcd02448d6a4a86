import { BadgeCheck } from 'lucide-react';
import { Link } from 'react-router';

/** Spec 2: the home hero with its two calls to action, the fresh guarantee and the mascot. */
export function HeroBand() {
  return (
    <section aria-labelledby="hero-heading" className="grid items-center gap-8 rounded-3xl bg-mango-50 px-6 py-10 md:grid-cols-2 md:px-12 md:py-14">
      <div className="space-y-6">
        <h1 id="hero-heading" className="text-4xl font-semibold leading-tight md:text-5xl">
          Premium Mangoes Delivered Fresh to Your Door
        </h1>
        <p className="text-lg text-ink-500">
          Alphonso, Kesar, Banganapalli and more, from family orchards in India to homes across New Zealand.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link to="/shop" className="rounded-full bg-mango-500 px-6 py-3 font-semibold text-ink-900 transition-colors hover:bg-mango-600">
            Shop Now
          </Link>
          <Link to="/about" className="rounded-full border border-ink-900 px-6 py-3 font-semibold transition-colors hover:bg-white">
            Learn More
            {/* Says where the link goes for screen readers and search engines; the button reads as the spec's. */}
            <span className="sr-only"> about Mango Shop</span>
          </Link>
        </div>
        <p className="inline-flex items-center gap-2 rounded-full bg-white px-4 py-2 text-sm font-semibold text-leaf-700 shadow-sm">
          <BadgeCheck aria-hidden="true" size={20} strokeWidth={1.5} />
          100% Fresh Guarantee
        </p>
      </div>
      <img
        src="/images/mascot.svg"
        alt="A smiling mango waving hello"
        width={480}
        height={480}
        loading="eager"
        fetchPriority="high"
        className="mx-auto aspect-square w-64 md:w-80"
      />
    </section>
  );
}
