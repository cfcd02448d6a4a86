import type { MetaArgs } from 'react-router';
import type { ContentPage } from '../../contracts/content';
import { contentPageQuery } from '../features/content/use-content-page';
import { pageMeta } from '../lib/page-meta';
import { queryDataOf } from '../lib/page-meta';

/** The content page's own title, from the page the server read (or 'Page not found'). */
export function contentMeta(args: MetaArgs, slug: string) {
  const page = queryDataOf<ContentPage>(args.data, contentPageQuery(slug).queryKey);
  if (page === null) return pageMeta(args, { name: 'Page not found', noindex: true });
  return pageMeta(args, page ? { name: page.title } : {});
}
