import type { ProductStock } from '../../contract/catalog.ts';
import { messages } from '../../contract/messages.ts';

/**
 * Adding to the basket (docs/rules.md#basket): checked on size change, on each key-up in quantity and on
 * confirm; adding is allowed only when this answers undefined.
 */
export function addToCartError(stock: ProductStock | undefined, quantityText: string): string | undefined {
  if (!stock) return messages.addToCart.selectSize;
  const trimmed = quantityText.trim();
  if (trimmed === '' || !/^-?\d+$/.test(trimmed)) return messages.addToCart.quantityRequired;
  const quantity = Number(trimmed);
  if (quantity < 1) return messages.addToCart.quantityRequired;
  if (quantity > stock.stock) return messages.addToCart.onlyInStock(stock.stock);
  return undefined;
}
