import { setImmediate } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { errorCodes } from '../../contract/error-codes.ts';
import { MAX_IMPORT_BYTES } from '../../contract/admin/products-csv.ts';
import { BadRequestError, RefusedError } from '../errors.ts';
import type { ProductCsvRead } from './products-csv.ts';

/**
 * Reads a products CSV in a worker thread (issue 31): parsing and checking 20,000 rows, or a
 * hostile file up to the 20 MB limit, is CPU work that on the event loop held every other request
 * for seconds. One thread serves the instance, started at the first file and kept (unref'd, so it
 * never holds the process open): starting one per file cost a second of module loading on a busy
 * machine. It reads one file at a time and answers it in batches (ROWS_A_BATCH), a few more wait their turn (two large ones at most), and past that a file is
 * refused (429) rather than held. Its heap is capped, so a file that slipped past the limits of
 * products-csv.ts fails alone (the next file starts a new thread) rather than taking the
 * instance's memory.
 */

/** The file in pieces of at most a megabyte, then its end; then, once read, a request for its next batch. */
export type ToReader = { id: number; piece: string } | { id: number; end: true } | { id: number; next: true };
/** Characters sent to the thread at a time: sending 20 MB at once (as a string or bytes) held the loop a second. */
const PIECE = 1 << 20;
/**
 * Rows, and errors, that cross back from the thread at a time. A read file comes back in batches,
 * each asked for after a turn of the event loop: 20,000 long rows in one message took a fifth of a
 * second to unpack on the event loop, and messages sent at once are unpacked in one turn.
 */
export const ROWS_A_BATCH = 500;
export const ERRORS_A_BATCH = 2_000;
/** What crosses back from the thread: a batch of the rows, or the one error a structured clone would otherwise flatten. */
export type FromReader = { id: number } & (
  | { ok: true; batch: ProductCsvRead; last: boolean }
  | { ok: false; badRequest: { message: string; field?: string } }
  | { ok: false; fault: string }
);

/** Files being read or waiting, on this instance. */
const MAX_IN_THREAD = 6;
/**
 * Characters of those files together: two files at the upload limit. Each waiting file holds its
 * text and what it becomes in memory (six 20 MB previews at once took an instance to 843 MB in an
 * outside attack); small files still share the thread as before.
 */
export const MAX_CHARS_IN_THREAD = 2 * MAX_IMPORT_BYTES;
let charsInThread = 0;
/** Far above what a 20 MB file within the limits needs (about 150 MB at 20,000 long rows). */
const THREAD_HEAP_MB = 512;

let worker: Worker | undefined;
let nextId = 1;
/** Files being read, waiting, or coming back in batches. */
let filesInThread = 0;
const waiting = new Map<number, { resolve: (answer: FromReader) => void; reject: (error: Error) => void }>();

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./products-csv-reader.worker.ts', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  });
  started.on('message', (answer: FromReader) => {
    waiting.get(answer.id)?.resolve(answer);
    waiting.delete(answer.id);
  });
  const stopped = (why: string) => {
    if (worker === started) worker = undefined;
    for (const [id, wait] of waiting) {
      waiting.delete(id);
      wait.reject(new Error(`the products CSV reader stopped: ${why}`));
    }
  };
  started.on('error', (error) => stopped(error.message));
  started.on('exit', (code) => stopped(`exit code ${code}`));
  // After the listeners: adding a 'message' listener refs the thread's port again.
  started.unref();
  worker = started;
  return started;
}

/** Sends `message` to the thread and answers what it answers for that file. */
function ask(reader: Worker, message: ToReader): Promise<FromReader> {
  // A thread that stopped between two batches has lost the file: the one after it never had it.
  if (worker !== reader) return Promise.reject(new Error('the products CSV reader stopped'));
  const answered = new Promise<FromReader>((resolve, reject) => waiting.set(message.id, { resolve, reject }));
  reader.postMessage(message);
  return answered;
}

function unpacked(answer: FromReader): Extract<FromReader, { ok: true }> {
  if (answer.ok) return answer;
  if ('badRequest' in answer) throw new BadRequestError(answer.badRequest.message, answer.badRequest.field);
  throw new Error(`in the products CSV reader: ${answer.fault}`);
}

export async function readProductCsvOffThread(text: string): Promise<ProductCsvRead> {
  if (filesInThread >= MAX_IN_THREAD || charsInThread + text.length > MAX_CHARS_IN_THREAD) {
    throw new RefusedError(
      429,
      errorCodes.tooManyRequests,
      'Other files are being read right now. Please try again in a minute.',
      'file',
    );
  }
  const id = nextId++;
  const reader = thread();
  charsInThread += text.length;
  // Held open while it reads: an instance stopping meanwhile still answers the file.
  if (filesInThread++ === 0) reader.ref();
  try {
    for (let at = 0; at < text.length;) {
      let end = Math.min(at + PIECE, text.length);
      // Never between the two halves of a character outside the BMP.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      reader.postMessage({ id, piece: text.slice(at, end) } satisfies ToReader);
      at = end;
      await setImmediate();
    }
    let answer = unpacked(await ask(reader, { id, end: true }));
    const read: ProductCsvRead = { rows: [], errors: [], rowCount: answer.batch.rowCount };
    for (;;) {
      // Pushed one by one: spreading a batch into push() would be a call of thousands of arguments.
      for (const row of answer.batch.rows) read.rows.push(row);
      for (const error of answer.batch.errors) read.errors.push(error);
      if (answer.last) return read;
      await setImmediate();
      answer = unpacked(await ask(reader, { id, next: true }));
    }
  } finally {
    charsInThread -= text.length;
    if (--filesInThread === 0) reader.unref();
  }
}
