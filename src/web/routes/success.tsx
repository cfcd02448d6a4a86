import type { MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import { signedInOnly } from '../lib/signed-in-page';
import SuccessPage from '../pages/success-page';

export const loader = signedInOnly;
export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Order Placed', noindex: true });

export default SuccessPage;
