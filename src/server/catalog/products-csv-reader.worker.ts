import { parentPort } from 'node:worker_threads';
import { BadRequestError } from '../errors.ts';
import type { FromReader, ToReader } from './products-csv-reader.ts';
import { readProductCsv } from './products-csv.ts';

/** The products CSV reader's thread (products-csv-reader.ts): reads each file sent, in turn. */
const port = parentPort;
if (!port) throw new Error('products-csv-reader.worker.ts runs as a worker thread');

/** The pieces of each file sent so far. */
const pieces = new Map<number, string[]>();

port.on('message', (message: ToReader) => {
  const { id } = message;
  if ('piece' in message) {
    const file = pieces.get(id);
    if (file) file.push(message.piece);
    else pieces.set(id, [message.piece]);
    return;
  }
  const text = (pieces.get(id) ?? []).join('');
  pieces.delete(id);
  let answer: FromReader;
  try {
    answer = { id, ok: true, read: readProductCsv(text) };
  } catch (error) {
    answer =
      error instanceof BadRequestError
        ? { id, ok: false, badRequest: { message: error.message, ...(error.field ? { field: error.field } : {}) } }
        : { id, ok: false, fault: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(answer);
});
