import { z } from 'zod';
import { hasWholeCents } from './money';
import { instantField } from './text';

export const promoDiscountTypes = ['percentage', 'fixed'] as const;
export type PromoDiscountType = (typeof promoDiscountTypes)[number];

/** Letters, digits and dashes: easy to read out, type and print on a flyer. */
export const promoCodePattern = /^[A-Za-z0-9-]+$/;

const moment = (label: string) => instantField(label, `${label} must be a date and time`).nullable();

const uses = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(1_000_000, `${label} must be at most 1,000,000`)
    .nullable();

/** Every field staff write; money in dollars like the rest of the API, percentages whole. */
const promoFields = z.strictObject({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .min(1, 'Code is required')
    .min(3, 'Code must be at least 3 characters')
    .max(30, 'Code must be at most 30 characters')
    .regex(promoCodePattern, 'Code can only use letters, digits and dashes')
    .transform((code) => code.toUpperCase()),
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .min(3, 'Description must be at least 3 characters')
    .max(200, 'Description must be at most 200 characters'),
  discountType: z.enum(promoDiscountTypes, { error: 'Choose a percentage or a fixed amount' }),
  /** A whole percent for 'percentage', dollars for 'fixed'. */
  discountValue: z.number({ error: 'Enter the discount as a number' }).positive('Discount must be more than 0').max(10_000, 'Discount must be at most $10,000.00'),
  startsAt: moment('Start'),
  endsAt: moment('End'),
  minimumOrder: z
    .number({ error: 'Minimum order must be a number' })
    .positive('Minimum order must be more than $0.00')
    .max(100_000, 'Minimum order must be at most $100,000.00')
    .refine(hasWholeCents, 'Minimum order can have at most 2 decimals')
    .nullable(),
  maxUses: uses('Total uses'),
  maxUsesPerCustomer: uses('Uses per customer'),
  isActive: z.boolean({ error: 'Active must be true or false' }),
});
export type PromoCodeFields = z.output<typeof promoFields>;

type RuleInput = Partial<Pick<PromoCodeFields, 'discountType' | 'discountValue' | 'startsAt' | 'endsAt'>>;

/**
 * The rules between fields, checked wherever both fields are known: by the schemas below, and by
 * the server again on an edit that sends one of them, against the stored other.
 */
export function promoRuleErrors(promo: RuleInput): Record<string, string> {
  const errors: Record<string, string> = {};
  const { discountType, discountValue, startsAt, endsAt } = promo;
  if (discountType === 'percentage' && discountValue !== undefined && (!Number.isInteger(discountValue) || discountValue > 100)) {
    errors.discountValue = 'A percentage must be a whole number from 1 to 100';
  }
  if (discountType === 'fixed' && discountValue !== undefined && !hasWholeCents(discountValue)) {
    errors.discountValue = 'A fixed amount can have at most 2 decimals';
  }
  if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt)) errors.endsAt = 'End must be after the start';
  return errors;
}

function checkRules(promo: RuleInput, context: z.RefinementCtx) {
  for (const [field, message] of Object.entries(promoRuleErrors(promo))) context.addIssue({ code: 'custom', path: [field], message });
}

const createDefaults = { startsAt: null, endsAt: null, minimumOrder: null, maxUses: null, maxUsesPerCustomer: null, isActive: true } as const;

/** POST /api/admin/promo-codes (and the admin form): the window, minimum and limits are optional. */
export const promoCodeSchema = promoFields
  .partial({ startsAt: true, endsAt: true, minimumOrder: true, maxUses: true, maxUsesPerCustomer: true, isActive: true })
  .superRefine(checkRules)
  .transform((input): PromoCodeFields => ({ ...createDefaults, ...input }));

/** PUT /api/admin/promo-codes/:id: any of the fields, e.g. only `isActive` to switch a code on or off. */
export const promoCodeUpdateSchema = promoFields
  .partial()
  .superRefine(checkRules)
  .refine((input) => Object.keys(input).length > 0, 'Send at least one promo code field');
export type PromoCodeUpdate = z.output<typeof promoCodeUpdateSchema>;

/** GET /api/admin/promo-codes: search by code, and the page. */
export const promoCodeQuerySchema = z.strictObject({
  q: z.string({ error: 'Search must be text' }).trim().max(100, 'Search must be at most 100 characters').optional(),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100_000).default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1).max(100, 'Page size must be at most 100').default(25),
});
export type PromoCodeQuery = z.output<typeof promoCodeQuerySchema>;

/** Whether shoppers can use the code right now, and if not, why. */
export type PromoState = 'live' | 'off' | 'scheduled' | 'expired' | 'used_up';

export const promoStateLabels: Record<PromoState, string> = {
  live: 'Live',
  off: 'Switched off',
  scheduled: 'Scheduled',
  expired: 'Ended',
  used_up: 'Used up',
};

export function promoState(promo: Pick<PromoCodeFields, 'isActive' | 'startsAt' | 'endsAt' | 'maxUses'> & { usedCount: number }, now: Date): PromoState {
  if (!promo.isActive) return 'off';
  if (promo.startsAt && now < new Date(promo.startsAt)) return 'scheduled';
  if (promo.endsAt && now >= new Date(promo.endsAt)) return 'expired';
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) return 'used_up';
  return 'live';
}

/** A promo code as staff see it, with what it has done for the shop. */
export interface AdminPromoCode extends PromoCodeFields {
  id: number;
  /** Uses that count against the limits: orders placed with the code and not cancelled. */
  usedCount: number;
  state: PromoState;
  /** Orders counted in revenue: placed with the code, not cancelled or refunded. */
  orderCount: number;
  /** Their totals (GST included) and the discount they were given, in dollars. */
  revenue: number;
  discountGiven: number;
  /** Only a code no order ever used can be deleted; a used one is switched off instead. */
  canDelete: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AdminPromoPage {
  promoCodes: AdminPromoCode[];
  total: number;
  page: number;
  pageSize: number;
}
