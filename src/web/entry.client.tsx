import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { takeResetTokenFromAddress } from './features/auth/reset-token';
import { bypassCookie, hasLocalBypass } from './features/maintenance/maintenance-rules';
import { readCookie, writeCookie } from './lib/cookies';

// Before the router reads the address and analytics starts: a reset token must never reach them.
takeResetTokenFromAddress();

// The server decides maintenance for a page's first request: it reads the local bypass flag from a cookie.
const flagged = hasLocalBypass();
if (flagged !== (readCookie(document.cookie, bypassCookie) === 'true')) writeCookie(bypassCookie, flagged ? 'true' : '', flagged ? 365 * 24 * 60 * 60 : 0);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
    {
      // A page the browser drew differently from the server (a hydration mismatch) is a bug: said
      // out loud, so the browser tests, which fail on any console error, catch it.
      onRecoverableError(error, info) {
        console.error('Mango Shop: the page did not hydrate as the server drew it', error, info.componentStack ?? '');
      },
    },
  );
});
