import { createExternalValue } from '../../lib/external-value';

/** Spec 3: the sign-in modal's state beyond isOpen. */
export interface PreOrderChoice {
  productId: number;
  productName: string;
}

const choice = createExternalValue<PreOrderChoice | null>(null);

/** Spec 4: a visitor starting a pre-order opens the modal with the product's id and name. */
export const openPreOrderSignIn = (next: PreOrderChoice): void => choice.set(next);
export const closePreOrderSignIn = (): void => choice.set(null);
export const usePreOrderChoice = choice.use;
