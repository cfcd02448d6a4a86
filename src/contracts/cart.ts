import { z } from 'zod';
import type { ImageInfo } from './image';

export const quantityField = z
  .number({ error: 'Quantity must be a whole number' })
  .int('Quantity must be a whole number')
  .min(1, 'Quantity must be at least 1')
  .max(10_000, 'Quantity is too large');

/** Spec 7: POST /api/cart/{userId}/items. */
export const addCartItemSchema = z.strictObject({
  productId: z.number({ error: 'Product is required' }).int('Product is required').positive('Product is required').max(2_147_483_647, 'Product not found'),
  quantity: quantityField,
});

/** Spec 7: PUT /api/cart/{userId}/items/{itemId}. */
export const updateCartItemSchema = z.strictObject({ quantity: quantityField });

/** Spec 3: the cart as the server answers it; itemCount and totalPrice are the spec's derived values. */
export interface CartLine {
  id: number;
  productId: number;
  quantity: number;
  product: {
    name: string;
    imageUrl: string;
    price: number;
    stock: number;
    isPreOrder: boolean;
    expectedAvailabilityDate: string | null;
    /** imageUrl's size and variant widths (decision 0012); null while unknown. */
    image: ImageInfo | null;
    /** Where the boxes it would be sent were grown ("Grown in India") and how treated, as the offer says; null while unknown. */
    origin: string | null;
    treatment: string | null;
  };
}

export interface Cart {
  userId: number;
  items: CartLine[];
  itemCount: number;
  totalPrice: number;
}
