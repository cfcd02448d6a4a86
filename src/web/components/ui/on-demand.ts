import { useState } from 'react';

/**
 * True from the first time `open` is true: an overlay's code (Radix and what it shows) loads when
 * it is first opened, not with every page, and then stays, so it can animate closed and open again.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Derived during render (React's pattern for state that follows a prop), not in an effect.
  if (open && !opened) setOpened(true);
  return opened || open;
}
