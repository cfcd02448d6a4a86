import { useSyncExternalStore } from 'react';

/** One value shared outside React (a dialog opened from anywhere, the shown toast), read with a hook. */
export function createExternalValue<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get: () => value,
    set(next: T) {
      value = next;
      listeners.forEach((listener) => listener());
    },
    use: () => useSyncExternalStore(subscribe, () => value, () => initial),
  };
}
