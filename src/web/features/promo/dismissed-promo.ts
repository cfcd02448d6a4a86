import { browserStateCookies } from '../../../contracts/cookies';
import { shopRules } from '../../../contracts/shop-rules';
import { writeCookie } from '../../lib/cookies';

const key = 'dismissedPromo';
/** The record, copied into a cookie `{promoId}.{expiry}`, so the server leaves the banner out too. */
export const dismissedPromoCookie = browserStateCookies.dismissedPromo;

/** Spec 3 and 4: the dismissed promo record {promoId, expiry}; hidden while it matches and is unexpired. */
export function isPromoDismissed(promoId: number, now = Date.now()): boolean {
  try {
    const record = JSON.parse(globalThis.localStorage?.getItem(key) ?? 'null') as { promoId?: unknown; expiry?: unknown } | null;
    return record?.promoId === promoId && typeof record.expiry === 'number' && record.expiry > now;
  } catch {
    return false;
  }
}

/** The promo id a `{promoId}.{expiry}` cookie hides now, or null. */
export function dismissedPromoIn(cookie: string | undefined, now = Date.now()): number | null {
  const record = /^(\d{1,9})\.(\d{1,15})$/.exec(cookie ?? '');
  return record && Number(record[2]) > now ? Number(record[1]) : null;
}

export function dismissPromo(promoId: number, now = Date.now()): void {
  const expiry = now + shopRules.promoDismissalMs;
  try {
    localStorage.setItem(key, JSON.stringify({ promoId, expiry }));
  } catch {
    // Storage blocked: the cookie still hides it.
  }
  writeCookie(dismissedPromoCookie, `${promoId}.${expiry}`, shopRules.promoDismissalMs / 1000);
}
