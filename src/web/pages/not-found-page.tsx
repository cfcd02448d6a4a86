import { Link } from 'react-router';

/** Spec 2: any other path shows '404 Page Not Found' with the router hint. */
export default function NotFoundPage() {
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="text-4xl font-semibold">404 Page Not Found</h1>
      <p className="mt-4 text-ink-500">Did you forget to add the page to the router?</p>
      <Link to="/" className="mt-8 inline-block rounded-full bg-mango-500 px-6 py-3 font-semibold text-ink-900 hover:bg-mango-600">
        Back to the shop
      </Link>
    </section>
  );
}
