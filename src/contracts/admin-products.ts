import { z } from 'zod';
import type { Product } from './product';

export const productSortKeys = ['name', 'price', 'stock', 'category', 'rating', 'newest'] as const;
export const productShowFilters = ['active', 'visible', 'hidden', 'archived'] as const;
export type ProductSortKey = (typeof productSortKeys)[number];
export type ProductShowFilter = (typeof productShowFilters)[number];

export const productShowLabels: Record<ProductShowFilter, string> = {
  active: 'All but archived',
  visible: 'Shown in the shop',
  hidden: 'Hidden',
  archived: 'Archived',
};

/** GET /api/admin/products/page: search, filter, sort and the page. */
export const adminProductQuerySchema = z.strictObject({
  q: z.string({ error: 'Search must be text' }).trim().max(100, 'Search must be at most 100 characters').optional(),
  show: z.enum(productShowFilters, { error: 'Show must be active, visible, hidden or archived' }).default('active'),
  sort: z.enum(productSortKeys, { error: 'Sort by name, price, stock, category, rating or newest' }).default('name'),
  dir: z.enum(['asc', 'desc'], { error: 'Direction must be asc or desc' }).default('asc'),
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100_000).default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1).max(100, 'Page size must be at most 100').default(25),
});
export type AdminProductQuery = z.output<typeof adminProductQuerySchema>;

/** PUT /api/admin/products/:id/archive: retire a product that has orders, or bring it back (hidden). */
export const productArchiveSchema = z.strictObject({ archived: z.boolean({ error: 'archived must be true or false' }) });

export interface AdminProductRow extends Product {
  /** The stored Low Stock flag; `isLowStock` also turns on at the shop's low-stock threshold. */
  alwaysLowStock: boolean;
  /** When staff archived it; archived products stay hidden and cannot be sold. */
  archivedAt: string | null;
  /** Orders with this product on them: such a product is archived, never deleted. */
  orderCount: number;
}

export interface AdminProductPage {
  products: AdminProductRow[];
  total: number;
  page: number;
  pageSize: number;
}
