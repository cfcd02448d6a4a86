import type { LoaderFunctionArgs, MetaArgs } from 'react-router';
import type { PageLoaderArgs } from '../lib/load-context';
import { contentPageQuery } from '../features/content/use-content-page';
import { loadInBrowser, loadOnServer, WithPageData } from '../lib/page-data';
import ContentPage from '../pages/content-page';
import { contentMeta } from './content-meta';

/** /content/:slug, and (content-fixed.tsx) the fixed routes of spec 2, each with its slug. */
export const loader = ({ context, params }: PageLoaderArgs) => loadOnServer(context, [contentPageQuery(params.slug ?? '')]);
export const clientLoader = ({ params }: LoaderFunctionArgs) => loadInBrowser([contentPageQuery(params.slug ?? '')]);
export const meta = (args: MetaArgs) => contentMeta(args, args.params.slug ?? '');

export default function ContentRoute() {
  return (
    <WithPageData>
      <ContentPage />
    </WithPageData>
  );
}
