import { useSyncExternalStore } from 'react';

/** Spec 3: the sign-in modal's state beyond isOpen. */
export interface PreOrderChoice {
  productId: number;
  productName: string;
}

let choice: PreOrderChoice | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/** Spec 4: a visitor starting a pre-order opens the modal with the product's id and name. */
export function openPreOrderSignIn(next: PreOrderChoice): void {
  choice = next;
  emit();
}

export function closePreOrderSignIn(): void {
  choice = null;
  emit();
}

export function usePreOrderChoice(): PreOrderChoice | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => choice,
    () => null,
  );
}
