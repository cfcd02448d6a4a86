import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as resetTokenModule from './reset-token';

/** A stand-in for the tab: its address, its history entry and its sessionStorage. */
interface FakeTab {
  location: { pathname: string; search: string; hash: string };
  history: { state: unknown; replaceState: ReturnType<typeof vi.fn> };
}

let tab: FakeTab;
let tabStorage: Map<string, string>;

function open(address: string) {
  const url = new URL(address, 'https://mangoshop.co.nz');
  tab.location = { pathname: url.pathname, search: url.search, hash: url.hash };
}

/** The module keeps the token per page load, so each load imports a fresh copy. */
async function loadPage(address: string): Promise<typeof resetTokenModule> {
  open(address);
  vi.resetModules();
  const resetToken = await import('./reset-token');
  resetToken.takeResetTokenFromAddress();
  return resetToken;
}

beforeEach(() => {
  tabStorage = new Map();
  tab = {
    location: { pathname: '/', search: '', hash: '' },
    history: { state: { idx: 0 }, replaceState: vi.fn() },
  };
  vi.stubGlobal('window', tab);
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => tabStorage.get(key) ?? null,
    setItem: (key: string, value: string) => tabStorage.set(key, value),
    removeItem: (key: string) => tabStorage.delete(key),
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('takeResetTokenFromAddress', () => {
  it('takes the token out of the reset link and keeps the rest of the address', async () => {
    const resetToken = await loadPage('/reset-password?token=SOMESECRET&from=mail#form');
    expect(tab.history.replaceState).toHaveBeenCalledExactlyOnceWith({ idx: 0 }, '', '/reset-password?from=mail#form');
    expect(resetToken.resetToken()).toBe('SOMESECRET');
  });

  it('keeps the token for a reload of the same tab, whose address no longer has it', async () => {
    await loadPage('/reset-password?token=SOMESECRET');
    const reloaded = await loadPage('/reset-password');
    expect(tab.history.replaceState).toHaveBeenCalledTimes(1);
    expect(reloaded.resetToken()).toBe('SOMESECRET');
  });

  it('lets a newer link replace the token of an earlier one', async () => {
    await loadPage('/reset-password?token=OLDSECRET');
    const newer = await loadPage('/reset-password?token=NEWSECRET');
    expect(newer.resetToken()).toBe('NEWSECRET');
  });

  it('leaves the address of every other page alone', async () => {
    const resetToken = await loadPage('/shop?token=not-a-reset-link');
    expect(tab.history.replaceState).not.toHaveBeenCalled();
    expect(resetToken.resetToken()).toBe('');
  });
});

describe('forgetResetToken', () => {
  it('drops the token from the page and the tab once it has been used', async () => {
    const resetToken = await loadPage('/reset-password?token=SOMESECRET');
    resetToken.forgetResetToken();
    expect(resetToken.resetToken()).toBe('');
    expect((await loadPage('/reset-password')).resetToken()).toBe('');
    expect([...tabStorage.values()]).toEqual([]);
  });
});
