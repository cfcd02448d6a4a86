import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bytea, createdAt, updatedAt } from './columns';

/** One row (id 1) holding the settings object, validated by the shared schema on every write. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: smallint('id').primaryKey().default(1),
    data: jsonb('data').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check('site_settings_single_row', sql`${t.id} = 1`)],
);

export const testimonials = pgTable(
  'testimonials',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    content: text('content').notNull(),
    author: text('author').notNull(),
    /** Rating times ten in half steps (45 is 4.5), at most 5. */
    ratingTenths: smallint('rating_tenths').notNull(),
    imageUrl: text('image_url'),
    isVisible: boolean('is_visible').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('testimonials_rating_half_steps', sql`${t.ratingTenths} between 5 and 50 and ${t.ratingTenths} % 5 = 0`)],
);

export const banners = pgTable(
  'banners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    location: text('location').notNull(),
    imageUrl: text('image_url').notNull(),
    title: text('title').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('banners_location_idx').on(t.location, t.sortOrder)],
);

export const contentPages = pgTable('content_pages', {
  slug: text('slug').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Pictures staff upload, in the database so every process behind a load balancer serves them
 * (decision 0009). The name is the content's hash: the same picture uploaded twice is one row.
 */
export const uploadedImages = pgTable(
  'uploaded_images',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** The picture's size once turned upright; null until its variants are made (decision 0012). */
    width: integer('width'),
    height: integer('height'),
    /**
     * The widths of the AVIF and WebP variants in uploaded_image_variants. Null: not made yet (a
     * picture stored before variants existed); empty: the bytes could not be decoded.
     */
    variantWidths: integer('variant_widths').array(),
  },
  (t) => [check('uploaded_images_byte_size', sql`${t.byteSize} = octet_length(${t.bytes})`)],
);

/** Smaller copies of an uploaded picture for phones: one per width and format (decision 0012). */
export const uploadedImageVariants = pgTable(
  'uploaded_image_variants',
  {
    imageName: text('image_name')
      .notNull()
      .references(() => uploadedImages.name, { onDelete: 'cascade' }),
    width: integer('width').notNull(),
    format: text('format', { enum: ['avif', 'webp'] }).notNull(),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.imageName, t.width, t.format] }),
    check('uploaded_image_variants_format', sql`${t.format} in ('avif', 'webp')`),
    check('uploaded_image_variants_byte_size', sql`${t.byteSize} = octet_length(${t.bytes})`),
  ],
);
