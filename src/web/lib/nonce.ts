import { createContext, useContext } from 'react';

/** The page's CSP nonce (server only: entry.server.tsx provides it; browsers hide it anyway). */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
