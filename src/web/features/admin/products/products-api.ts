import type { AdminProductPage, AdminProductQuery, AdminProductRow } from '../../../../contracts/admin-products';
import type { Product, ProductFields } from '../../../../contracts/product';
import { apiRequest } from '../../../lib/api-client';
import { filterQuery } from '../shared/admin-api';

export type ProductTableQuery = Partial<AdminProductQuery>;

export const adminProductsKey = (query: ProductTableQuery) => ['admin', 'products', query] as const;

export const fetchProductPage = (query: ProductTableQuery, signal?: AbortSignal) =>
  apiRequest<AdminProductPage>(`/api/admin/products/page${filterQuery(query)}`, { signal });

export const createProduct = (fields: ProductFields) => apiRequest<Product>('/api/products', { method: 'POST', body: fields });

export const updateProduct = (id: number, fields: Partial<ProductFields>) => apiRequest<Product>(`/api/products/${id}`, { method: 'PUT', body: fields });

export const deleteProduct = (id: number) => apiRequest<{ message: string }>(`/api/products/${id}`, { method: 'DELETE' });

export const archiveProduct = (id: number, archived: boolean) =>
  apiRequest<AdminProductRow>(`/api/admin/products/${id}/archive`, { method: 'PUT', body: { archived } });
