import type { MetaArgs } from 'react-router';
import { pageMeta } from '../lib/page-meta';
import CartPage from '../pages/cart-page';

export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Your Cart', noindex: true });

export default CartPage;
