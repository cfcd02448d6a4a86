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
 * ARCHITECTURE difference 2: the server read the session cookie for the page (root.tsx), so the
 * page is drawn, on the server and in the browser alike, for the user it said; the stored user
 * is kept in step with it. When the server could not tell (`initialUser` undefined), GET /api/me
 * decides after hydration if a user is stored; a 401 clears the cache.
 */
export function AuthProvider({ children, initialUser }: { children: ReactNode; initialUser: User | null | undefined }) {
  const [user, setUser] = useState<User | null>(initialUser ?? null);
  const [checking, setChecking] = useState(initialUser === undefined);

  useEffect(() => {
    if (initialUser !== undefined) {
      storeUser(initialUser);
      return;
    }
    let cancelled = false;
    // A shopper who signed out (or never signed in) has no stored user: nothing to ask.
    (readStoredUser() ? fetchMe() : Promise.resolve(null))
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
  }, [initialUser]);

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
