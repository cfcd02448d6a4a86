import { index, route, type RouteConfig } from '@react-router/dev/routes';
import { appRoutes, fixedContentPaths } from '../contracts/routes';

const path = (route: string) => route.slice(1);

/**
 * Spec 2's routes (contracts/routes.ts) as framework-mode route modules, each a chunk of its own
 * that the browser loads when it first needs the page.
 */
export default [
  index('routes/home.tsx'),
  route(path(appRoutes.shop), 'routes/shop.tsx'),
  route(path(appRoutes.product), 'routes/product.tsx'),
  route(path(appRoutes.content), 'routes/content.tsx'),
  ...Object.values(fixedContentPaths).map((fixed) => route(path(fixed), 'routes/content-fixed.tsx', { id: `content${fixed}` })),
  route(path(appRoutes.maintenance), 'routes/maintenance.tsx'),
  route(path(appRoutes.auth), 'routes/auth.tsx'),
  route(path(appRoutes.cart), 'routes/cart.tsx'),
  route(path(appRoutes.resetPassword), 'routes/reset-password.tsx'),
  route(path(appRoutes.checkout), 'routes/checkout.tsx'),
  route(path(appRoutes.success), 'routes/success.tsx'),
  route(path(appRoutes.account), 'routes/account.tsx', { id: 'account' }),
  route(path(appRoutes.accountOrder), 'routes/account.tsx', { id: 'account-order' }),
  route(path(appRoutes.order), 'routes/account.tsx', { id: 'order' }),
  route(path(appRoutes.admin), 'routes/admin.tsx', { id: 'admin' }),
  route(path(appRoutes.adminSection), 'routes/admin.tsx', { id: 'admin-section' }),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
