import { parentPort } from 'node:worker_threads';
import { BadRequestError } from '../errors.ts';
import { ERRORS_A_BATCH, ROWS_A_BATCH, type FromReader, type ToReader } from './products-csv-reader.ts';
import { readProductCsv, type ProductCsvRead } from './products-csv.ts';

/** The products CSV reader's thread (products-csv-reader.ts): reads each file sent, in turn, and sends it back a batch at a time as asked. */
const port = parentPort;
if (!port) throw new Error('products-csv-reader.worker.ts runs as a worker thread');

/** The pieces of each file sent so far. */
const pieces = new Map<number, string[]>();
/** Each read file's rows and errors not yet sent back. */
const unsent = new Map<number, { read: ProductCsvRead; rowsAt: number; errorsAt: number }>();

/** The file's next batch, and forgets the file after its last. */
function nextBatch(id: number): FromReader {
  const file = unsent.get(id);
  if (!file) return { id, ok: false, fault: `file ${id} is not held by this thread` };
  const { read, rowsAt, errorsAt } = file;
  const batch: ProductCsvRead = {
    rows: read.rows.slice(rowsAt, rowsAt + ROWS_A_BATCH),
    errors: read.errors.slice(errorsAt, errorsAt + ERRORS_A_BATCH),
    rowCount: read.rowCount,
  };
  file.rowsAt += ROWS_A_BATCH;
  file.errorsAt += ERRORS_A_BATCH;
  const last = file.rowsAt >= read.rows.length && file.errorsAt >= read.errors.length;
  if (last) unsent.delete(id);
  return { id, ok: true, batch, last };
}

port.on('message', (message: ToReader) => {
  const { id } = message;
  if ('piece' in message) {
    const file = pieces.get(id);
    if (file) file.push(message.piece);
    else pieces.set(id, [message.piece]);
    return;
  }
  if ('next' in message) {
    port.postMessage(nextBatch(id));
    return;
  }
  const text = (pieces.get(id) ?? []).join('');
  pieces.delete(id);
  try {
    unsent.set(id, { read: readProductCsv(text), rowsAt: 0, errorsAt: 0 });
  } catch (error) {
    port.postMessage(
      error instanceof BadRequestError
        ? { id, ok: false, badRequest: { message: error.message, ...(error.field ? { field: error.field } : {}) } }
        : { id, ok: false, fault: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    );
    return;
  }
  port.postMessage(nextBatch(id));
});
