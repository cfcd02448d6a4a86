import { adminSectionTitles } from './admin-layout';

export function AdminContent() {
  return (
    <section className="grid gap-3">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['content']}</h1>
      <p className="text-ink-500">This admin screen is not open yet.</p>
    </section>
  );
}
