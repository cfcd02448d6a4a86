import { useParams } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { Markdown } from '../features/content/markdown';
import { useContentPage } from '../features/content/use-content-page';

/** Spec 2: the fixed-slug routes pass their slug; /content/:slug takes it from the address. */
export default function ContentPage({ slug: fixedSlug }: { slug?: string }) {
  const params = useParams();
  const slug = fixedSlug ?? params.slug ?? '';
  const page = useContentPage(slug);
  if (page.isPending) return <Spinner />;
  if (!page.data) {
    return (
      <section className="py-16 text-center">
        <h1 className="text-3xl font-semibold">Page not found</h1>
        <p className="mt-3 text-ink-500">We couldn't find that page.</p>
      </section>
    );
  }
  return (
    <article className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-4xl font-semibold">{page.data.title}</h1>
      <Markdown source={page.data.body} />
    </article>
  );
}
