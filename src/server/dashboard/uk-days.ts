/**
 * Days as a UK shop counts them (Europe/London: GMT in winter, BST in summer), for the dashboard's
 * "today", "this week" and daily chart. Times are ISO strings in UTC, as the database keeps them.
 */
const ukDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const ukOffset = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'shortOffset' });

/** The UK date (YYYY-MM-DD) of a moment. */
export function ukDayOf(at: Date): string {
  return ukDate.format(at);
}

/** Minutes the UK is ahead of UTC at a moment (0 or 60). */
function offsetMinutes(at: Date): number {
  const name = ukOffset.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-]\d+)(?::(\d+))?/.exec(name);
  return match ? Number(match[1]) * 60 + Math.sign(Number(match[1])) * Number(match[2] ?? 0) : 0;
}

/** The moment a UK date begins. Clocks change at 01:00 or 02:00, so midnight's offset is the day's. */
export function ukDayStart(day: string): Date {
  const utcMidnight = new Date(`${day}T00:00:00.000Z`);
  return new Date(utcMidnight.getTime() - offsetMinutes(utcMidnight) * 60_000);
}

/** The UK date `n` days before (negative: after) another. */
export function ukDayMinus(day: string, n: number): string {
  const date = new Date(`${day}T12:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() - n);
  return date.toISOString().slice(0, 10);
}

/** The Monday of a UK date's week. */
export function ukWeekStart(day: string): string {
  const weekday = new Date(`${day}T12:00:00.000Z`).getUTCDay();
  return ukDayMinus(day, (weekday + 6) % 7);
}
