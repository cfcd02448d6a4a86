import type { MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import { signedInOnly } from '../lib/signed-in-page';
import CheckoutPage from '../pages/checkout-page';

export const loader = signedInOnly;
export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Checkout', noindex: true });

export default CheckoutPage;
