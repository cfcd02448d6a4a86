import { data, type MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import NotFoundPage from '../pages/not-found-page';

/** Unknown paths answer HTTP 404 with the 404 page. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta = (args: MetaArgs) => pageMeta(args, { name: '404 Page Not Found', noindex: true });

export default NotFoundPage;
