import { useState } from 'react';
import type { Product } from '../../../contract/catalog.ts';
import { addToCartError } from '../../lib/add-to-cart-rules.ts';
import { basketStore, stockDetailOf } from '../../lib/basket/basket-store.ts';

/**
 * The size or style and the quantity a shopper is about to add, on the product page and on a
 * product card (docs/rules.md#basket): the first entry in stock preselected (the first entry when
 * none is), the quantity starting at 1, checked on every edit and again on add.
 */
export function useStockChoice(product: Product) {
  const [stockId, setStockId] = useState<number | undefined>(() => firstChoice(product));
  const [quantity, setQuantity] = useState('1');
  const [error, setError] = useState<string | undefined>();
  const stock = product.stocks.find((s) => s.id === stockId);

  return {
    stock,
    stockId,
    quantity,
    error,
    chooseStock(id: number) {
      const next = product.stocks.find((s) => s.id === id);
      setStockId(next?.id);
      setError(addToCartError(next, quantity));
    },
    changeQuantity(text: string) {
      setQuantity(text);
      setError(addToCartError(stock, text));
    },
    /** Checks the choice; when it is good, adds it to the basket and answers true. */
    add(): boolean {
      const problem = addToCartError(stock, quantity);
      setError(problem);
      if (problem || !stock) return false;
      basketStore.add(stock.id, Number(quantity.trim()), stockDetailOf(product, stock));
      return true;
    },
    /** Back to the first entry in stock and a quantity of 1, with no message. */
    reset() {
      setStockId(firstChoice(product));
      setQuantity('1');
      setError(undefined);
    },
  };
}

/** The entry a choice starts on: the first with stock, so a sold-out first size is not offered first. */
function firstChoice(product: Product): number | undefined {
  return (product.stocks.find((s) => s.stock > 0) ?? product.stocks[0])?.id;
}

export type StockChoice = ReturnType<typeof useStockChoice>;
