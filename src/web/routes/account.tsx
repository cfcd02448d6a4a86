import type { MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import { signedInOnly } from '../lib/signed-in-page';
import AccountPage from '../pages/account-page';

/** /account, /account/orders/:id and /order/:id: the shopper's own, drawn with their data in the browser. */
export const loader = signedInOnly;
export const meta = (args: MetaArgs) => pageMeta(args, { name: args.params.id ? `Order ${args.params.id.toUpperCase()}` : 'My Account', noindex: true });

export default AccountPage;
