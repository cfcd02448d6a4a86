import { lazy } from 'react';

/**
 * The sign-in and sign-up forms with their validation, loaded when first shown: by the dialog when
 * it opens, and by the /auth page. Both load it the same way, so it stays out of every page's
 * first download.
 */
export const LazyAuthPanel = lazy(() => import('./auth-panel').then((module) => ({ default: module.AuthPanel })));
