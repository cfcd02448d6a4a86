import { matchPath } from 'react-router';
import { resetPasswordPath } from '../../../contracts/reset-password-path';

/**
 * The mailed reset link carries its token in `?token=`. Analytics must never see it, and the Meta
 * pixel and gtag.js read document.location themselves, so the token leaves the address before the
 * app starts and waits here for the reset page (docs/decisions/0007).
 */
const storeKey = 'resetToken';
let token = '';

/** sessionStorage keeps the token for a reload of this tab only; storage may be blocked. */
function store(value: string): void {
  try {
    if (value) globalThis.sessionStorage?.setItem(storeKey, value);
    else globalThis.sessionStorage?.removeItem(storeKey);
  } catch {
    // Without storage the token lives in memory: only a reload loses it.
  }
}

function stored(): string {
  try {
    return globalThis.sessionStorage?.getItem(storeKey) ?? '';
  } catch {
    return '';
  }
}

/** Call once at start-up, before the router and analytics read the address. */
export function takeResetTokenFromAddress(): void {
  const { pathname, search, hash } = window.location;
  if (!matchPath(resetPasswordPath, pathname)) return;
  const params = new URLSearchParams(search);
  const fromLink = params.get('token');
  if (fromLink === null) return;
  params.delete('token');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${pathname}${rest ? `?${rest}` : ''}${hash}`);
  token = fromLink;
  store(fromLink);
}

/** The token of the link this tab opened, or '' when there is none. */
export function resetToken(): string {
  return token || stored();
}

/** A token that was redeemed or refused is of no more use; it does not stay in the tab. */
export function forgetResetToken(): void {
  token = '';
  store('');
}
