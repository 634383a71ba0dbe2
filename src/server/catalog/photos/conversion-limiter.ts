import { errorCodes } from '../../../contract/error-codes.ts';
import { RefusedError } from '../../errors.ts';

/**
 * At most `concurrency` photo conversions at once on this instance, the others waiting their turn
 * in order; past `maxWaiting` waiting, an upload is refused (429, with Retry-After) rather than
 * held for minutes. On the shop's 2-core machines one conversion runs at a time, so a second core
 * is always left for the requests (docs/decisions/0011-product-photo-storage.md).
 *
 * An upload takes its place with `reserve()` before its file is read, and is refused then if every
 * place is taken: so at most `concurrency + maxWaiting` files are being received, waiting (on disk:
 * photos.admin-service.ts) or converted at once, and a refused file is never read at all.
 */
export function createConversionLimiter(options: { concurrency: number; maxWaiting: number }) {
  let running = 0;
  /** Places taken that have not yet been given their turn, whether or not they have asked for it. */
  let reserved = 0;
  const waiting: Array<() => void> = [];

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  function refuse(): RefusedError {
    return new RefusedError(
      429,
      errorCodes.tooManyRequests,
      'Too many photos are being prepared right now. Please try again in a minute.',
      undefined,
      60,
    );
  }

  const limiter = {
    /**
     * A place in the queue, or a 429 now when there is none. `turn()` waits until a conversion may
     * run; `release()` gives the place up (after the conversion, or instead of it), once.
     */
    reserve(): { turn(): Promise<void>; release(): void } {
      if (running + reserved >= options.concurrency + options.maxWaiting) throw refuse();
      reserved++;
      let state: 'reserved' | 'waiting' | 'running' | 'released' = 'reserved';
      return {
        async turn() {
          if (state !== 'reserved') throw new Error('a place in the conversion queue takes its turn once');
          if (running >= options.concurrency) {
            state = 'waiting';
            // The slot is handed over by release(): `running` stays counted for the next in line.
            await new Promise<void>((resolve) => waiting.push(resolve));
          } else {
            running++;
          }
          reserved--;
          state = 'running';
        },
        release() {
          if (state === 'reserved') reserved--;
          if (state === 'running') release();
          // A place released while waiting is not possible: turn() is awaited before release().
          state = 'released';
        },
      };
    },

    async run<T>(work: () => Promise<T>): Promise<T> {
      const place = limiter.reserve();
      try {
        await place.turn();
        return await work();
      } finally {
        place.release();
      }
    },
    /** Conversions running and waiting now (for tests and logs). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
  return limiter;
}

export type ConversionLimiter = ReturnType<typeof createConversionLimiter>;
