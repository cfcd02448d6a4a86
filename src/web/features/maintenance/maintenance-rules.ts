import { browserStateCookies } from '../../../contracts/cookies';

/** Spec 4 and 9: the local flag that lets staff see the shop during maintenance. */
export const localBypassKey = 'adminBypassMaintenance';
/** The flag's copy the server reads, and where a visitor sent to /maintenance was going. */
export const { maintenanceBypass: bypassCookie, maintenanceFrom: maintenanceFromCookie } = browserStateCookies;

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
