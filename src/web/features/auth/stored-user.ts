import type { User } from '../../../contracts/user';

const key = 'user';

/** Spec 3: the user is kept in browser storage under 'user', only as a cache for first paint. */
export function readStoredUser(): User | null {
  const raw = globalThis.localStorage?.getItem(key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<User>;
    if (typeof parsed.id === 'number' && typeof parsed.username === 'string') return parsed as User;
  } catch {
    // Unreadable: removed below (spec 4).
  }
  localStorage.removeItem(key);
  return null;
}

export function storeUser(user: User | null): void {
  if (user) localStorage.setItem(key, JSON.stringify(user));
  else localStorage.removeItem(key);
}
