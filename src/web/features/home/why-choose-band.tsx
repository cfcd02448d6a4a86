import { Leaf, type LucideIcon, PackageCheck, ShieldCheck, Truck } from 'lucide-react';

interface Reason {
  title: string;
  description: string;
  Icon: LucideIcon;
}

// Spec 2 and 9: four features; shipping is $12 flat across New Zealand, fresh in 24-48 hours.
const reasons: Reason[] = [
  { title: 'Farm Fresh', description: 'Picked at peak maturity on family orchards and flown straight to New Zealand.', Icon: Leaf },
  { title: 'Standard Shipping $12', description: 'One flat rate anywhere in New Zealand, delivered in 24-48 hours.', Icon: Truck },
  { title: 'Secure Packaging', description: 'Each mango cushioned in its own nest so your box arrives without a bruise.', Icon: PackageCheck },
  { title: 'Satisfaction Guarantee', description: 'Not delighted with your mangoes? Tell us and we will make it right.', Icon: ShieldCheck },
];

/** Spec 2: the 'Why Choose' band. */
export function WhyChooseBand() {
  return (
    <section aria-labelledby="why-choose" className="space-y-8">
      <h2 id="why-choose" className="text-center text-3xl font-semibold">Why Choose Mango Shop</h2>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {reasons.map(({ title, description, Icon }) => (
          <li key={title} className="rounded-2xl bg-white p-6 text-center shadow-sm">
            <span className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-mango-50 text-mango-700">
              <Icon aria-hidden="true" size={24} strokeWidth={1.5} />
            </span>
            <h3 className="text-lg font-semibold">{title}</h3>
            <p className="mt-2 text-ink-500">{description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
