import { describe, expect, it } from 'vitest';
import type { ProductStock } from '../../contract/catalog.ts';
import { addToCartError } from './add-to-cart-rules.ts';

const stock = (units: number): ProductStock => ({
  id: 1,
  productStockId: 1,
  productId: 1,
  productSizeName: 'Standard',
  productTitle: 'Dhol',
  stock: units,
  price: 1000,
  priceReduction: 0,
  priceWithoutDiscount: 1000,
});

describe('add to cart rules', () => {
  it.each([
    [undefined, '1', 'Select Size'],
    [stock(5), '', 'Quantity Required'],
    [stock(5), '   ', 'Quantity Required'],
    [stock(5), 'two', 'Quantity Required'],
    [stock(5), '1.5', 'Quantity Required'],
    [stock(5), '0', 'Quantity Required'],
    [stock(5), '-2', 'Quantity Required'],
    [stock(5), '6', 'Only 5 items in stock'],
    [stock(0), '1', 'Only 0 items in stock'],
  ])('with %j and quantity %j says %j', (entry, quantity, message) => {
    expect(addToCartError(entry, quantity)).toBe(message);
  });

  it.each(['1', '5', ' 3 '])('allows quantity %j of 5 in stock', (quantity) => {
    expect(addToCartError(stock(5), quantity)).toBeUndefined();
  });
});
