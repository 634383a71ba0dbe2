export { formatPence } from '../../contract/money.ts';

/** The highest percent reduction across a product's entries: the card's badge (docs/rules.md#prices-and-money). */
export function highestReduction(stocks: Array<{ priceReduction: number }>): number {
  return stocks.reduce((max, stock) => Math.max(max, stock.priceReduction), 0);
}
