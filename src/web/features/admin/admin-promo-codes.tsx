import { adminSectionTitles } from './admin-layout';

export function AdminPromoCodes() {
  return (
    <section className="grid gap-3">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['promo-codes']}</h1>
      <p className="text-ink-500">This admin screen is not open yet.</p>
    </section>
  );
}
