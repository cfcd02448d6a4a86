/** The session cookie: HttpOnly, its value a random id whose SHA-256 the server keeps. */
export const sessionCookieName = 'mango_session';

/**
 * The cookies the browser's own state is copied into, so the server that draws the pages sees it
 * too (decision 0013). The spec keeps the state itself in local storage (spec 9's keys).
 */
export const browserStateCookies = {
  /** Spec 4's local flag adminBypassMaintenance, copied: the server decides maintenance. */
  maintenanceBypass: 'adminBypassMaintenance',
  /** Where a visitor sent to /maintenance was going, for a browser whose flag the server did not see. */
  maintenanceFrom: 'maintenance_from',
  /** The dismissed promo record, as `{promoId}.{expiry}`: a hidden banner is not drawn. */
  dismissedPromo: 'dismissed_promo',
} as const;
