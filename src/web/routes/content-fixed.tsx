import { type LoaderFunctionArgs, type MetaArgs, useLocation } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import { fixedContentPaths } from '../../contracts/routes';
import { contentPageQuery } from '../features/content/use-content-page';
import { loadInBrowser, loadOnServer, WithPageData } from '../lib/page-data';
import ContentPage from '../pages/content-page';
import { contentMeta } from './content-meta';

const slugByPath = new Map(Object.entries(fixedContentPaths).map(([slug, path]) => [path, slug]));

function slugOf(pathname: string): string {
  return slugByPath.get(pathname.replace(/(.)\/$/, '$1')) ?? '';
}

/** Spec 2's fixed content routes (/about, /shipping-policy, ..., /test-content). */
export const loader = ({ context, url }: PageLoaderArgs) => loadOnServer(context, [contentPageQuery(slugOf(url.pathname))]);
export const clientLoader = ({ request }: LoaderFunctionArgs) => loadInBrowser([contentPageQuery(slugOf(new URL(request.url).pathname))]);
export const meta = (args: MetaArgs) => contentMeta(args, slugOf(args.location.pathname));

export default function FixedContentRoute() {
  const slug = slugOf(useLocation().pathname);
  return (
    <WithPageData>
      <ContentPage slug={slug} />
    </WithPageData>
  );
}
