/** Money is integer pence everywhere (docs/rules.md#prices-and-money); these helpers only format and derive. */

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12999 -> "£129.99" */
export function formatPence(pence: number): string {
  return gbp.format(pence / 100);
}

/**
 * The voucher's share of goods worth `goods` (at their unit prices), when goods worth `before` have
 * had theirs taken already: the difference of the running shares, each the discount spread over the
 * items in proportion to their price and rounded to the penny. Shares taken piece by piece so add
 * up to the whole discount, whatever the pieces: no penny lost to rounding, none given twice.
 */
export function voucherShareOf(goods: number, order: { itemsTotal: number; discount: number }, before = 0): number {
  if (order.itemsTotal <= 0 || order.discount <= 0) return 0;
  const runningShare = (worth: number) =>
    Math.round((order.discount * Math.min(Math.max(worth, 0), order.itemsTotal)) / order.itemsTotal);
  return runningShare(before + goods) - runningShare(before);
}

/** Goods' price less their share of the voucher's discount (voucherShareOf): what refunding them comes to. */
export function goodsLessVoucherShare(
  goods: number,
  order: { itemsTotal: number; discount: number },
  before = 0,
): number {
  return goods - voucherShareOf(goods, order, before);
}

const wholeGbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

/** 150049 -> "£1,500": to the nearest pound, where pence would only crowd (a chart's axis). */
export function formatWholePounds(pence: number): string {
  return wholeGbp.format(Math.round(pence / 100));
}

/**
 * 12999 -> "129.99": the plain decimal the payment providers want, and what a form shows in a
 * field where pounds are typed (poundsToPence reads it back).
 */
export function penceToDecimal(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * "12.50", "12.5", "12", "£1,200.00" -> pence: pounds as a person types them (in a form or a
 * spreadsheet) to integer pence, read from the digits rather than multiplied as a float, so 0.29
 * is 29p and not 28.999...; undefined when it is no amount of money. Too large an amount is still
 * an amount: the schema that takes it says how large it may be.
 */
export function poundsToPence(typed: string): number | undefined {
  const match = /^£?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(typed.trim());
  if (!match) return undefined;
  const pounds = Number((match[1] ?? '').replaceAll(',', ''));
  const pence = Number((match[2] ?? '').padEnd(2, '0'));
  return pounds * 100 + pence;
}

/**
 * "-12.50" -> -1250: an amount as a payment provider writes it (an optional minus, exactly two
 * decimals); undefined for anything else, so a malformed notification is never read as money.
 */
export function decimalToPence(value: string | undefined): number | undefined {
  const match = /^(-?)(\d{1,7})\.(\d{2})$/.exec(value ?? '');
  if (!match) return undefined;
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
}

/** `percent` % of an amount, rounded to the nearest penny (a voucher's percentage off). */
export function percentOf(pence: number, percent: number): number {
  return Math.round((pence * percent) / 100);
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

export interface VatSplit {
  gross: number;
  net: number;
  vat: number;
}

/**
 * An invoice's amounts (lines, a discount as a negative amount, delivery), each including VAT,
 * split into net and VAT so that the VAT of the lines adds up to the VAT the shop charged: the VAT
 * contained in their total (vatContainedIn, as the basket and the order show it). Each line's own
 * rounding can differ from the total's by a penny or so; the difference goes to the largest line.
 */
export function vatBreakdown(amounts: readonly number[]): VatSplit & { lines: VatSplit[] } {
  const vatOf = (gross: number) => Math.sign(gross) * vatContainedIn(Math.abs(gross));
  const gross = amounts.reduce((sum, amount) => sum + amount, 0);
  const vat = vatOf(gross);
  const lines = amounts.map((amount) => ({ gross: amount, net: amount - vatOf(amount), vat: vatOf(amount) }));
  const difference = vat - lines.reduce((sum, line) => sum + line.vat, 0);
  const largest = lines.reduce<VatSplit | undefined>(
    (big, line) => (!big || line.gross > big.gross ? line : big),
    undefined,
  );
  if (largest && difference !== 0) {
    largest.vat += difference;
    largest.net -= difference;
  }
  return { gross, net: gross - vat, vat, lines };
}
