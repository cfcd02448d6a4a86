import { z } from 'zod';
import { hasWholeCents } from './money';
import type { ImageInfo } from './image';
import { calendarDateField, imageUrlField, instantField } from './text';
import { type OriginView, originCountryField, type Treatment, treatmentField, type TreatmentView } from './origin';

/** Spec 3: a product as the API answers it (price in dollars with 2 decimals). */
export interface Product {
  id: number;
  name: string;
  description: string;
  price: number;
  imageUrl: string;
  category: string;
  rating: number;
  stock: number;
  isBestseller: boolean;
  isOrganic: boolean;
  isLowStock: boolean;
  isPreOrder: boolean;
  expectedAvailabilityDate: string | null;
  isHidden: boolean;
  boxInfo: string | null;
  preOrderLimit: number | null;
  /** A pre-order product whose limit is reached: no more pre-orders, "Notify me" instead. */
  preOrdersFull: boolean;
  /**
   * When pre-orders open (ISO 8601, UTC); null is open now. Before it the product offers "Notify
   * me"; the server refuses cart adds and orders by its own clock.
   */
  preOrdersOpenAt: string | null;
  /** The variety's clock: days from harvest until ready to eat, then days at its best; both or neither. */
  ripeningDays: number | null;
  daysAtBest: number | null;
  /**
   * Only in a single product's answer (GET /api/products/:id): the harvest date of the batch the
   * next order would be packed from (first expiring, after the boxes already sold), or null; the
   * product page says from it when boxes sent now will be ready to eat.
   */
  nextHarvestedOn?: string | null;
  /** Offered as a season box: every week or fortnight, less the subscriber discount (a whole percent), until `seasonEndsOn` (null: until staff end it). */
  subscribable: boolean;
  subscriberDiscountPercent: number;
  seasonEndsOn: string | null;
  /** imageUrl's size and variant widths (decision 0012); null while unknown. */
  image: ImageInfo | null;
  /** Where the boxes sent now (or a pre-order's coming shipment) were grown, as the law asks every offer to say. */
  origin: OriginView;
  /** How those boxes were treated after harvest ("Treated with ionising radiation"). */
  treatment: TreatmentView;
  /** What staff set on the product itself: the coming shipment's, and any batch recorded without its own. */
  originSetting: { country: string | null; treatment: Treatment | null };
}

const openingTimeMessage = 'Opening time must be a date and time with its time zone, like 2026-12-04T19:00:00+13:00';


/** Every field of a product that staff may write; the create schema needs them all but the flags. */
export const productFields = z.strictObject({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'Name must be at least 2 characters').max(120, 'Name must be at most 120 characters'),
  description: z.string({ error: 'Description is required' }).trim().min(10, 'Description must be at least 10 characters').max(4000, 'Description must be at most 4000 characters'),
  price: z
    .number({ error: 'Price must be a number' })
    .positive('Price must be more than $0.00')
    .max(100000, 'Price must be at most $100,000.00')
    .refine(hasWholeCents, 'Price can have at most 2 decimals'),
  imageUrl: imageUrlField('Image URL is required'),
  category: z.string({ error: 'Category is required' }).trim().min(2, 'Category is required').max(60, 'Category must be at most 60 characters'),
  rating: z.number({ error: 'Rating must be a number' }).min(0, 'Rating must be between 0 and 5').max(5, 'Rating must be between 0 and 5').refine((r) => Number.isInteger(Math.round(r * 1000) / 100), 'Rating can have at most 1 decimal'),
  stock: z.number({ error: 'Stock must be a whole number' }).int('Stock must be a whole number').min(0, 'Stock cannot be negative').max(1_000_000, 'Stock must be at most 1,000,000'),
  isBestseller: z.boolean({ error: 'Must be true or false' }),
  isOrganic: z.boolean({ error: 'Must be true or false' }),
  isLowStock: z.boolean({ error: 'Must be true or false' }),
  isPreOrder: z.boolean({ error: 'Must be true or false' }),
  expectedAvailabilityDate: calendarDateField('Expected availability', 'Expected availability must be a date (YYYY-MM-DD)').nullable(),
  isHidden: z.boolean({ error: 'Must be true or false' }),
  boxInfo: z.string({ error: 'Box info must be text' }).trim().max(100, 'Box info must be at most 100 characters').nullable(),
  preOrderLimit: z.number({ error: 'Pre-order limit must be a whole number' }).int('Pre-order limit must be a whole number').min(1, 'Pre-order limit must be at least 1').max(100_000, 'Pre-order limit is too large').nullable(),
  preOrdersOpenAt: instantField('Opening time', openingTimeMessage)
    .transform((value) => new Date(value).toISOString())
    .nullable(),
  ripeningDays: z
    .number({ error: 'Ripening days must be a whole number' })
    .int('Ripening days must be a whole number')
    .min(0, 'Ripening days cannot be negative')
    .max(60, 'Ripening days must be at most 60')
    .nullable(),
  daysAtBest: z
    .number({ error: 'Days at its best must be a whole number' })
    .int('Days at its best must be a whole number')
    .min(1, 'Days at its best must be at least 1')
    .max(30, 'Days at its best must be at most 30')
    .nullable(),
  /** ISO 3166-1 alpha-2; null until known (the dashboard lists products without one). */
  originCountry: originCountryField.nullable(),
  treatment: treatmentField.nullable(),
  subscribable: z.boolean({ error: 'Must be true or false' }),
  subscriberDiscountPercent: z
    .number({ error: 'Subscriber discount must be a whole percent' })
    .int('Subscriber discount must be a whole percent')
    .min(0, 'Subscriber discount cannot be negative')
    .max(50, 'Subscriber discount must be at most 50%'),
  seasonEndsOn: calendarDateField('Season end', 'Season end must be a date (YYYY-MM-DD)').nullable(),
});
export type ProductFields = z.output<typeof productFields>;

const flagDefaults = {
  isBestseller: false,
  isOrganic: false,
  isLowStock: false,
  isPreOrder: false,
  expectedAvailabilityDate: null,
  isHidden: false,
  boxInfo: null,
  preOrderLimit: null,
  preOrdersOpenAt: null,
  ripeningDays: null,
  daysAtBest: null,
  originCountry: null,
  treatment: null,
  subscribable: false,
  subscriberDiscountPercent: 0,
  seasonEndsOn: null,
  rating: 0,
} as const;

/** A variety's clock needs both numbers, or neither (the product page then says nothing of ripeness). */
export function ripeningProblem(product: Pick<ProductFields, 'ripeningDays' | 'daysAtBest'>): { field: 'ripeningDays' | 'daysAtBest'; message: string } | null {
  if (product.ripeningDays !== null && product.daysAtBest === null) return { field: 'daysAtBest', message: 'Days at its best is needed with ripening days' };
  if (product.ripeningDays === null && product.daysAtBest !== null) return { field: 'ripeningDays', message: 'Ripening days are needed with days at its best' };
  return null;
}

/** A pre-order needs the date shoppers are promised; spec 2 shows it on every pre-order card. */
export function preOrderProblem(product: Pick<ProductFields, 'isPreOrder' | 'expectedAvailabilityDate'>): string | null {
  return product.isPreOrder && !product.expectedAvailabilityDate
    ? 'A pre-order product needs an expected availability date'
    : null;
}

export const createProductSchema = productFields
  .partial({
    isBestseller: true,
    isOrganic: true,
    isLowStock: true,
    isPreOrder: true,
    expectedAvailabilityDate: true,
    isHidden: true,
    boxInfo: true,
    preOrderLimit: true,
    preOrdersOpenAt: true,
    ripeningDays: true,
    daysAtBest: true,
    originCountry: true,
    treatment: true,
    subscribable: true,
    subscriberDiscountPercent: true,
    seasonEndsOn: true,
    rating: true,
  })
  .transform((input): ProductFields => ({ ...flagDefaults, ...input }));

/** Spec 7: PUT takes product fields, or only isHidden to show or hide. */
export const updateProductSchema = productFields.partial().refine((input) => Object.keys(input).length > 0, 'Send at least one product field');
export type ProductUpdate = z.output<typeof updateProductSchema>;

export const productSearchSchema = z.strictObject({
  search: z.string().max(100, 'Search must be at most 100 characters').optional(),
});

export const idParam = (name: string) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).positive(`${name} must be a whole number`).max(2_147_483_647, `${name} is out of range`);

/** The shop page's sort orders (`/shop?sort=`), the first its default. */
export const shopSortOptions = [
  { value: 'featured', label: 'Featured' },
  { value: 'price-asc', label: 'Price: low to high' },
  { value: 'price-desc', label: 'Price: high to low' },
  { value: 'rating', label: 'Top rated' },
  { value: 'name', label: 'Name: A to Z' },
] as const;
