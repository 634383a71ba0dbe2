import { errorCodes } from '../../../contract/error-codes.ts';
import { RefusedError } from '../../errors.ts';

/**
 * At most `concurrency` photo conversions at once on this instance, the others waiting their turn
 * in order; past `maxWaiting` waiting, an upload is refused (429) rather than held for minutes. On
 * the shop's 2-core machines one conversion runs at a time, so a second core is always left for
 * the requests (docs/decisions/0011-product-photo-storage.md).
 */
export function createConversionLimiter(options: { concurrency: number; maxWaiting: number }) {
  let running = 0;
  const waiting: Array<() => void> = [];

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= options.concurrency) {
        if (waiting.length >= options.maxWaiting) {
          throw new RefusedError(
            429,
            errorCodes.tooManyRequests,
            'Too many photos are being prepared right now. Please try again in a minute.',
          );
        }
        // The slot is handed over by release(): `running` stays counted for the next in line.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** Conversions running and waiting now (for tests and logs). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}

export type ConversionLimiter = ReturnType<typeof createConversionLimiter>;
