/**
 * The page a mailed reset link opens (appRoutes.resetPassword). Apart from routes.ts because every
 * page's start-up code reads it (the link's token leaves the address before anything else runs),
 * and the rest of the routes are only the pages' business.
 */
export const resetPasswordPath = '/reset-password';
