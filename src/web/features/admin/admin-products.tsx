import { adminSectionTitles } from './admin-layout';

export function AdminProducts() {
  return (
    <section className="grid gap-3">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['products']}</h1>
      <p className="text-ink-500">This admin screen is not open yet.</p>
    </section>
  );
}
