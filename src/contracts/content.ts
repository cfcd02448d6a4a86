import type { ImageInfo } from './image';

/** Spec 3: a promo code as GET /api/promo-codes/active answers it. */
export interface ActivePromo {
  id: number;
  code: string;
  /** 'percentage', or any other value for a fixed amount (spec 3). */
  discountType: 'percentage' | 'fixed';
  /** A percentage (10 means 10%), or a fixed amount in dollars. */
  discountValue: number;
  description: string;
  minimumOrder: number | null;
  endsAt: string | null;
}

export interface Testimonial {
  id: number;
  content: string;
  author: string;
  rating: number;
  imageUrl: string | null;
  /** imageUrl's size and variant widths (decision 0012); null while unknown. */
  image: ImageInfo | null;
}

export interface Banner {
  id: number;
  imageUrl: string;
  title: string;
  /** imageUrl's size and variant widths (decision 0012); null while unknown. */
  image: ImageInfo | null;
}

export interface ContentPage {
  slug: string;
  title: string;
  body: string;
  updatedAt: string;
}
