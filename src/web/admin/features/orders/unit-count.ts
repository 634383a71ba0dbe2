import { z } from 'zod';

/** A number of units typed for one order line (to send, to put back): a whole number from 0 to `max`. */
export function unitCount(max: number, tooMany: string) {
  return z.coerce
    .number({ error: 'Please enter a number of units' })
    .int('Please enter a whole number of units')
    .min(0, 'Please enter 0 or more')
    .max(max, tooMany);
}
