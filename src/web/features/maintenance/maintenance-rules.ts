/** Spec 4 and 9: the local flag that lets staff see the shop during maintenance. */
export const localBypassKey = 'adminBypassMaintenance';
/** The flag, copied into a cookie so the server (which decides maintenance now) sees it too. */
export const bypassCookie = 'adminBypassMaintenance';
/** Where a visitor sent to /maintenance was going, for a browser whose flag the server did not see. */
export const maintenanceFromCookie = 'maintenance_from';

/** Spec 4: the check is skipped on /maintenance, under /admin, with the bypass flag or ?bypass=maintenance. */
export function skipsMaintenanceCheck(pathname: string, search: string, bypassFlag: boolean): boolean {
  return pathname === '/maintenance' || pathname.startsWith('/admin') || bypassFlag || new URLSearchParams(search).get('bypass') === 'maintenance';
}

/** The browser's flag (storage may be blocked: then there is none). */
export function hasLocalBypass(): boolean {
  try {
    return globalThis.localStorage?.getItem(localBypassKey) === 'true';
  } catch {
    return false;
  }
}
