/** Money is integer pence everywhere (docs/rules.md#prices-and-money); these helpers only format and derive. */

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12999 -> "£129.99" */
export function formatPence(pence: number): string {
  return gbp.format(pence / 100);
}

/** 12999 -> "129.99", the plain decimal the payment providers want. */
export function penceToDecimal(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const VAT_RATE_PERCENT = 20;

/** Prices include UK VAT at 20%; the VAT shown is the VAT contained in a total (docs/rules.md#prices-and-money). */
export function vatContainedIn(totalPence: number): number {
  return Math.round((totalPence * VAT_RATE_PERCENT) / (100 + VAT_RATE_PERCENT));
}

/** The price after a percent reduction, rounded to the nearest penny. */
export function discountedPrice(priceWithoutDiscount: number, reductionPercent: number): number {
  return Math.round((priceWithoutDiscount * (100 - reductionPercent)) / 100);
}
