/** One thing a new shop still lacks, with where to set it (null: it is set where the shop is started). */
export interface SetupItem {
  key: 'bank-account' | 'gst' | 'public-url' | 'smtp' | 'shop-address' | 'pickup-address' | 'product-origin' | `content:${string}`;
  title: string;
  detail: string;
  link: string | null;
}

/** GET /api/admin/setup: what is left to set up; empty once the shop is ready. */
export interface SetupChecklist {
  missing: SetupItem[];
}
