import { parentPort } from 'node:worker_threads';
import { BadRequestError } from '../errors.ts';
import type { FromReader, ToReader } from './products-csv-reader.ts';
import { readProductCsv } from './products-csv.ts';

/** The products CSV reader's thread (products-csv-reader.ts): reads each file sent, in turn. */
const port = parentPort;
if (!port) throw new Error('products-csv-reader.worker.ts runs as a worker thread');

port.on('message', ({ id, bytes }: ToReader) => {
  let answer: FromReader;
  try {
    answer = { id, ok: true, read: readProductCsv(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) };
  } catch (error) {
    answer =
      error instanceof BadRequestError
        ? { id, ok: false, badRequest: { message: error.message, ...(error.field ? { field: error.field } : {}) } }
        : { id, ok: false, fault: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(answer);
});
