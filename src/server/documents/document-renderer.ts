import { Piscina } from 'piscina';
import { errorCodes } from '../../contract/error-codes.ts';
import { RefusedError } from '../errors.ts';
import type { RenderTask } from './pdf/render-documents.ts';

/**
 * Draws PDFs in a thread of their own (docs/rules.md#invoices-and-credit-notes): a batch of two
 * hundred pages is seconds of CPU, which on the event loop would hold every other request for as
 * long. One thread, started at the first document and stopped after a minute without one; a few
 * batches wait their turn, and past that a request is refused (429, try again shortly) rather than held.
 */

/** Batches waiting for the thread, beyond the one it draws. */
const MAX_WAITING = 8;

export interface DocumentRenderer {
  render(task: RenderTask): Promise<Buffer>;
  close(): Promise<void>;
}

export function createDocumentRenderer(): DocumentRenderer {
  const pool = new Piscina({
    filename: new URL('./pdf/render.worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    maxQueue: MAX_WAITING,
  });
  return {
    async render(task) {
      try {
        const bytes: Uint8Array = await pool.run(task);
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        if (error instanceof Error && /queue is at limit/i.test(error.message))
          throw new RefusedError(
            429,
            errorCodes.tooManyRequests,
            'Other documents are being drawn right now. Please try again in a minute.',
            undefined,
            30,
          );
        throw error;
      }
    },
    close: () => pool.close({ force: true }),
  };
}
