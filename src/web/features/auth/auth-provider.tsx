import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { User } from '../../../contracts/user';
import { fetchMe, postLogout } from './api/session';
import { readStoredUser, storeUser } from './stored-user';

interface AuthState {
  user: User | null;
  /** True until the server has said who the session belongs to. */
  checking: boolean;
  signedIn(user: User): void;
  logOut(): Promise<{ serverFailed: boolean }>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * ARCHITECTURE difference 2: the stored user paints the header at once, then GET /api/me decides;
 * a 401 clears the cache. With no stored user the shopper signed out (or never signed in), so a
 * visitor's page load makes no call at all.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(() => readStoredUser());
  const [checking, setChecking] = useState(() => user !== null);

  useEffect(() => {
    if (!readStoredUser()) return;
    let cancelled = false;
    fetchMe()
      .then((me) => {
        if (cancelled) return;
        setUser(me);
        storeUser(me);
      })
      .catch((error: unknown) => console.warn('Could not check the session', error))
      .finally(() => !cancelled && setChecking(false));
    return () => {
      cancelled = true;
    };
  }, []);

  const signedIn = useCallback((next: User) => {
    storeUser(next);
    setUser(next);
  }, []);

  // Spec 4: the user is cleared even when the server's logout call fails.
  const logOut = useCallback(async () => {
    let serverFailed = false;
    try {
      await postLogout();
    } catch {
      serverFailed = true;
    }
    storeUser(null);
    setUser(null);
    return { serverFailed };
  }, []);

  const value = useMemo(() => ({ user, checking, signedIn, logOut }), [user, checking, signedIn, logOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs <AuthProvider>');
  return state;
}
