import { redirect } from 'react-router';
import type { User } from '../../contracts/user';
import type { PageLoaderArgs } from './load-context';

/**
 * Document request for a page only a signed-in shopper has (account, checkout, success): a
 * visitor is sent to sign in first and brought back, before any HTML. Client navigations are
 * checked by the page itself, as before.
 */
export async function signedInOnly({ context, request, url }: PageLoaderArgs): Promise<null> {
  // `url`, not request.url: a client navigation's request is the page's `.data` address.
  const user = request.headers.get('cookie') ? await context.api<User | null>('/api/me', { on401: 'null' }).catch(() => undefined) : null;
  if (user === null) throw redirect(`/auth?redirect=${encodeURIComponent(url.pathname + url.search)}`);
  return null;
}
