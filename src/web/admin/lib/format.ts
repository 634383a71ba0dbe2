export { formatPence, penceToDecimal, poundsToPence } from '../../../contract/money.ts';

const dateTime = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Europe/London',
});
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'Europe/London' });

/** "3 Mar 2026, 14:05", UK time, as the shop's staff read it. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '';
}

export function formatDate(iso: string): string {
  return date.format(new Date(iso));
}

/** An address's filled-in parts, one per line. */
export function addressLines(address: Record<string, string | number | null>): string[] {
  return ['line1', 'line2', 'line3', 'townCity', 'postcode', 'country']
    .map((key) => address[key])
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '');
}

/** "paid", "pending_payment" -> "Paid", "Pending payment". */
export function humanise(value: string): string {
  const words = value.replaceAll(/[_-]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
