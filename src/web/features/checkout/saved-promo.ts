/**
 * The promo code a shopper applied at checkout, kept for this tab (sessionStorage, per account) so
 * a reload of checkout keeps it; cleared once the order is placed. The server prices it again.
 */
const keyFor = (userId: number) => `checkoutPromo:${userId}`;

export function readSavedPromo(userId: number): string | null {
  try {
    return globalThis.sessionStorage?.getItem(keyFor(userId)) ?? null;
  } catch {
    return null;
  }
}

export function savePromo(userId: number, code: string | undefined): void {
  try {
    if (code) sessionStorage.setItem(keyFor(userId), code);
    else sessionStorage.removeItem(keyFor(userId));
  } catch {
    // Storage blocked: the code lasts until the page is left, as before.
  }
}
