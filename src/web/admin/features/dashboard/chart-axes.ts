import { formatWholePounds } from '../../../../contract/money.ts';

/**
 * The sales chart's axis labels, as a British owner reads them: "27 Nov", not uPlot's "11/27"; whole
 * pounds ("£1,500"), since pence on an axis only crowd it and were cut off ("1,500.00").
 */
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' });

/** A point on the time axis (uPlot's seconds) as its UK day. */
export function axisDay(seconds: number): string {
  return day.format(new Date(seconds * 1000));
}

/** Pence on the money axis, in whole pounds. */
export function axisPounds(pence: number): string {
  return formatWholePounds(pence);
}
