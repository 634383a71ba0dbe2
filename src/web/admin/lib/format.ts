export { formatPence } from '../../../contract/money.ts';

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

/**
 * "12.50" -> 1250: pounds as typed (an optional "£", at most two decimals) to integer pence, read
 * from the digits rather than multiplied as a float, so 0.29 is 29p and not 28.999...; undefined
 * when it is no amount of money.
 */
export function poundsToPence(typed: string): number | undefined {
  const match = /^£?\s*(\d{1,7})(?:\.(\d{1,2}))?$/.exec(typed.trim().replaceAll(',', ''));
  if (!match) return undefined;
  const pounds = Number(match[1]);
  const pence = Number((match[2] ?? '').padEnd(2, '0'));
  return pounds * 100 + pence;
}
