/** Spec 2: the tagline band between the products and the reasons to choose us. */
export function TaglineBand() {
  return (
    <section aria-labelledby="tagline" className="rounded-3xl bg-mango-500 px-6 py-14 text-center text-ink-900 md:py-20">
      <h2 id="tagline" className="font-serif text-4xl font-semibold tracking-tight md:text-6xl">
        Bold, Fresh, Unforgettable
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-lg">
        Sun-ripened flavour in every box, picked for its season and sent straight to you.
      </p>
    </section>
  );
}
