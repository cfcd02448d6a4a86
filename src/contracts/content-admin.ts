import { z } from 'zod';
import { imageUrlField, imageUrlMessage, isImageUrl, requiredText } from './text';

const imageField = imageUrlField('Image is required');

/** An image that may be left out: empty text or null both mean none. */
const optionalImageUrlField = z
  .string({ error: imageUrlMessage })
  .trim()
  .max(500, 'Image URL must be at most 500 characters')
  .refine((url) => url === '' || isImageUrl(url), imageUrlMessage)
  .nullable()
  .transform((url) => url || null);

const atLeastOneField = (input: object) => Object.keys(input).length > 0;
const atLeastOneFieldMessage = 'Send at least one field to change';

/** Spec 3: ratings in half steps, shown up to 5; the database keeps tenths (45 is 4.5). */
export const ratingField = z
  .number({ error: 'Rating must be a number' })
  .min(0.5, 'Rating must be between 0.5 and 5')
  .max(5, 'Rating must be between 0.5 and 5')
  .refine((rating) => Number.isInteger(rating * 2), 'Rating must be in half steps, like 4 or 4.5');

export const testimonialFields = z.strictObject({
  content: requiredText('Testimonial text must be at least 10 characters', 10, 1000, 'Testimonial text must be at most 1000 characters'),
  author: requiredText('Author is required', 2, 80, 'Author must be at most 80 characters'),
  rating: ratingField,
  imageUrl: optionalImageUrlField,
  isVisible: z.boolean({ error: 'Must be true or false' }),
});

/** POST /api/admin/testimonials: a new testimonial shows at the end of the list unless hidden. */
export const createTestimonialSchema = testimonialFields.partial({ imageUrl: true, isVisible: true }).transform((input) => ({
  ...input,
  imageUrl: input.imageUrl ?? null,
  isVisible: input.isVisible ?? true,
}));
export type TestimonialInput = z.output<typeof createTestimonialSchema>;

/** PUT /api/admin/testimonials/:id: any of its fields; only `isVisible` hides or shows it. */
export const updateTestimonialSchema = testimonialFields.partial().refine(atLeastOneField, atLeastOneFieldMessage);
export type TestimonialUpdate = z.output<typeof updateTestimonialSchema>;

/** PUT .../order: every id of the list once, first shown first. */
export const reorderSchema = z.strictObject({
  ids: z
    .array(z.number({ error: 'Ids must be whole numbers' }).int('Ids must be whole numbers').positive('Ids must be whole numbers'), { error: 'Send the ids in their new order' })
    .min(1, 'Send the ids in their new order')
    .max(500, 'At most 500 items can be ordered at once')
    .refine((ids) => new Set(ids).size === ids.length, 'Each item may appear only once'),
});
export type Reorder = z.output<typeof reorderSchema>;

export interface AdminTestimonial {
  id: number;
  content: string;
  author: string;
  rating: number;
  imageUrl: string | null;
  isVisible: boolean;
  updatedAt: string;
}

/** Spec 7: the storefront reads the farm gallery's banners; staff manage that location. */
export const farmGalleryLocation = 'farm_gallery';

export const bannerFields = z.strictObject({
  imageUrl: imageField,
  title: requiredText('Title must be at least 2 characters', 2, 120, 'Title must be at most 120 characters'),
  isActive: z.boolean({ error: 'Must be true or false' }),
});

export const createBannerSchema = bannerFields.partial({ isActive: true }).transform((input) => ({ ...input, isActive: input.isActive ?? true }));
export type BannerInput = z.output<typeof createBannerSchema>;

export const updateBannerSchema = bannerFields.partial().refine(atLeastOneField, atLeastOneFieldMessage);
export type BannerUpdate = z.output<typeof updateBannerSchema>;

export interface AdminBanner {
  id: number;
  imageUrl: string;
  title: string;
  isActive: boolean;
  updatedAt: string;
}

/** The public page route's rule: lower-case words joined by hyphens. */
export const pageSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const pageSlugMaxLength = 80;

/**
 * Spec 2: the storefront's fixed routes and footer links show these pages, so they may be edited
 * but never deleted (a link to a deleted page would show 'Page not found').
 */
export const protectedPageSlugs: readonly string[] = [
  'about-us',
  'contact',
  'shipping-policy',
  'refund-policy',
  'terms-conditions',
  'privacy-policy',
  'mango-season-guide',
  'test-content',
];

const pageTitleField = requiredText('Title must be at least 2 characters', 2, 120, 'Title must be at most 120 characters');
const pageBodyField = requiredText('Page text is required', 1, 20_000, 'Page text must be at most 20,000 characters');

export const createPageSchema = z.strictObject({
  slug: z
    .string({ error: 'Address is required' })
    .trim()
    .min(1, 'Address is required')
    .max(pageSlugMaxLength, `Address must be at most ${pageSlugMaxLength} characters`)
    .regex(pageSlugPattern, 'Use lower-case letters, digits and single hyphens, like mango-recipes')
    // The content screen opens its blank editor at ?page=new.
    .refine((slug) => slug !== 'new', 'This address is reserved: choose another'),
  title: pageTitleField,
  body: pageBodyField,
});
export type PageInput = z.output<typeof createPageSchema>;

/** PUT /api/admin/content/pages/:slug: the title, the text or both; the address stays. */
export const updatePageSchema = z.strictObject({ title: pageTitleField, body: pageBodyField }).partial().refine(atLeastOneField, atLeastOneFieldMessage);
export type PageUpdate = z.output<typeof updatePageSchema>;

export interface AdminPageSummary {
  slug: string;
  title: string;
  updatedAt: string;
  /** Linked from the storefront: editable, not deletable. */
  isProtected: boolean;
}

export interface AdminPage extends AdminPageSummary {
  body: string;
}
