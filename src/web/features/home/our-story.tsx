import { HandHeart, Handshake, type LucideIcon, Sprout } from 'lucide-react';
import { Link } from 'react-router';

const highlights: { label: string; Icon: LucideIcon }[] = [
  { label: 'Sustainable Farming', Icon: Sprout },
  { label: 'Hand-Picked Quality', Icon: HandHeart },
  { label: 'Fair Trade Certified', Icon: Handshake },
];

/** Spec 2: the 'Our Story' block, linking to the About page. */
export function OurStory() {
  return (
    <section aria-labelledby="our-story" className="rounded-3xl bg-white px-6 py-10 shadow-sm md:px-12 md:py-14">
      <div className="grid gap-8 md:grid-cols-2 md:items-center">
        <div className="space-y-4">
          <p className="text-sm font-semibold uppercase tracking-widest text-leaf-700">Since 2025</p>
          <h2 id="our-story" className="text-3xl font-semibold">Our Story</h2>
          <p className="text-ink-500">
            Mango Shop was founded in 2025 to bring premium Indian mangoes to New Zealand. We work directly with growers
            in Ratnagiri, Gir and Andhra Pradesh so the varieties we grew up with reach your table at their very best.
          </p>
          <Link to="/about" className="inline-block font-semibold underline decoration-mango-500 decoration-2 underline-offset-4 hover:decoration-mango-600">
            Read Our Story
          </Link>
        </div>
        <ul className="space-y-3">
          {highlights.map(({ label, Icon }) => (
            <li key={label} className="flex items-center gap-3 rounded-2xl bg-mango-50 px-5 py-4 font-semibold">
              <Icon aria-hidden="true" size={20} strokeWidth={1.5} className="text-leaf-700" />
              {label}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
