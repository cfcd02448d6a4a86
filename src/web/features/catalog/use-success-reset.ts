import { useEffect } from 'react';
import { shopRules } from '../../../contracts/shop-rules';

/** Spec 4 and 9: an add's success state lasts 2 seconds, then `reset` puts the controls back. */
export function useSuccessReset(succeeded: boolean, reset: () => void): void {
  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(reset, shopRules.cartSuccessAnimationMs);
    return () => clearTimeout(timer);
    // `reset` is a fresh closure each render; only the start of a success state sets the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [succeeded]);
}
