import { describe, expect, it } from 'vitest';
import { stockBadge } from './stock-badge';

describe('stock badge (spec 4)', () => {
  it.each([
    [{ stock: 0, isLowStock: false, isPreOrder: false, preOrdersFull: false }, 'Out of Stock'],
    [{ stock: 0, isLowStock: true, isPreOrder: false, preOrdersFull: false }, 'Out of Stock'],
    [{ stock: 3, isLowStock: true, isPreOrder: false, preOrdersFull: false }, 'Low Stock'],
    [{ stock: 30, isLowStock: false, isPreOrder: false, preOrdersFull: false }, 'In Stock'],
    [{ stock: 0, isLowStock: false, isPreOrder: true, preOrdersFull: false }, 'Available for Pre-Order'],
    [{ stock: 0, isLowStock: false, isPreOrder: true, preOrdersFull: true }, 'Pre-Orders Full'],
  ])('%j shows %s', (product, badge) => {
    expect(stockBadge(product)).toBe(badge);
  });
});
