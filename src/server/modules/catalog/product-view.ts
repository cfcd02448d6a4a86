import type { ImageInfo } from '../../../contracts/image';
import type { Product } from '../../../contracts/product';
import { centsToDollars } from '../../../contracts/money';
import { originView, treatmentView } from '../../../contracts/origin';
import type { products } from '../../db/schema';
import type { OfferedOrigin } from '../inventory/batches';

export type ProductRow = typeof products.$inferSelect;

/**
 * Spec 3's product; Low Stock also shows once stock falls to the shop's threshold. `preOrdered`:
 * the boxes live pre-orders hold, against the pre-order limit.
 */
export function toProduct(row: ProductRow, lowStockThreshold: number, image: ImageInfo | undefined, preOrdered: number, offered: OfferedOrigin | undefined): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: centsToDollars(row.priceCents),
    imageUrl: row.imageUrl,
    category: row.category,
    rating: row.ratingTenths / 10,
    stock: row.stock,
    isBestseller: row.isBestseller,
    isOrganic: row.isOrganic,
    isLowStock: row.stock > 0 && (row.isLowStock || row.stock <= lowStockThreshold),
    isPreOrder: row.isPreOrder,
    expectedAvailabilityDate: row.expectedAvailabilityDate,
    isHidden: row.isHidden,
    boxInfo: row.boxInfo,
    preOrderLimit: row.preOrderLimit,
    preOrdersFull: row.isPreOrder && row.preOrderLimit !== null && preOrdered >= row.preOrderLimit,
    preOrdersOpenAt: row.preOrdersOpenAt?.toISOString() ?? null,
    ripeningDays: row.ripeningDays,
    daysAtBest: row.daysAtBest,
    subscribable: row.subscribable,
    subscriberDiscountPercent: row.subscriberDiscountPercent,
    seasonEndsOn: row.seasonEndsOn,
    image: image ?? null,
    origin: originView(offered?.countries ?? (row.originCountry ? [row.originCountry] : [])),
    treatment: treatmentView(offered?.treatments ?? (row.treatment ? [row.treatment] : [])),
    originSetting: { country: row.originCountry, treatment: row.treatment },
  };
}
