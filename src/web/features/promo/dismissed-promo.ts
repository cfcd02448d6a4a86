import { shopRules } from '../../../contracts/shop-rules';

const key = 'dismissedPromo';

/** Spec 3 and 4: the dismissed promo record {promoId, expiry}; hidden while it matches and is unexpired. */
export function isPromoDismissed(promoId: number, now = Date.now()): boolean {
  try {
    const record = JSON.parse(localStorage.getItem(key) ?? 'null') as { promoId?: unknown; expiry?: unknown } | null;
    return record?.promoId === promoId && typeof record.expiry === 'number' && record.expiry > now;
  } catch {
    return false;
  }
}

export function dismissPromo(promoId: number, now = Date.now()): void {
  localStorage.setItem(key, JSON.stringify({ promoId, expiry: now + shopRules.promoDismissalMs }));
}
