import { useEffect } from 'react';
import type { MetaArgs } from 'react-router';
import { bypassCookie, hasLocalBypass, maintenanceFromCookie } from '../features/maintenance/maintenance-rules';
import { readCookie, writeCookie } from '../lib/cookies';
import { ownPath } from '../lib/own-path';
import { pageMeta } from '../lib/page-meta';
import MaintenancePage from '../pages/maintenance-page';

export const meta = (args: MetaArgs) => pageMeta(args, { name: 'Maintenance', noindex: true });


/**
 * The server sent a visitor here without seeing the browser's local bypass flag (spec 4), which
 * only the browser can read: with the flag set, the cookie the server reads is set and the
 * visitor goes on to the page they asked for.
 */
export default function MaintenanceRoute() {
  useEffect(() => {
    if (!hasLocalBypass()) return;
    const from = ownPath(readCookie(document.cookie, maintenanceFromCookie));
    writeCookie(bypassCookie, 'true', 365 * 24 * 60 * 60);
    writeCookie(maintenanceFromCookie, '', 0);
    if (from && from !== '/maintenance') window.location.replace(from);
  }, []);
  return <MaintenancePage />;
}
