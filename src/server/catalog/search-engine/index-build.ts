import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex, type BaseIndex, type IndexedProduct } from './product-index.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inOneSnapshot, type IndexedProductRow, type SearchEngineRepository } from './search-engine.repository.ts';

/**
 * Building the index from the published catalogue (docs/decisions/0017-in-process-search-index.md).
 * A large catalogue is read and built in a child process with its own connection: the strings,
 * maps and buffers a build makes and drops never reach the server's memory (at 100,000 products
 * the server kept 80 to 200 MB more after building in its own thread or a worker thread, which the
 * allocator never gave back), the server's event loop is never held, and the child can read the
 * catalogue twice in one snapshot, so the arrays are allocated once at their size. It leaves them
 * in a file, which the server reads in one piece.
 */

/** Products read per query while building. */
const BUILD_PAGE = 500;

export function toIndexed(row: IndexedProductRow) {
  return {
    id: row.id,
    title: row.title,
    searchTags: row.search_tags,
    searchText: row.search_text,
    typeId: row.product_type_id,
    brandId: row.brand_id,
    lowestPrice: Number(row.lowest_price ?? 0),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every published product, page by page, pausing for other work between pages when asked. */
async function forEachPublished(
  repository: SearchEngineRepository,
  visit: (product: IndexedProduct) => void,
  pause?: () => Promise<void>,
): Promise<void> {
  for (let after = 0; ;) {
    const rows = await repository.publishedAfter(after, BUILD_PAGE);
    for (const row of rows) visit(toIndexed(row));
    if (rows.length < BUILD_PAGE) return;
    after = rows.at(-1)!.id;
    await pause?.();
  }
}

/**
 * Builds the index here, for a small catalogue: read once into memory (the shared connection
 * cannot hold a snapshot open while it serves), then built from that.
 */
export async function buildIndexData(repository: SearchEngineRepository): Promise<BaseIndex> {
  const products: IndexedProduct[] = [];
  await forEachPublished(repository, (product) => products.push(product), nextTurn);
  return buildIndex(async (visit) => products.forEach(visit));
}

/** Builds the index on a connection of its own, reading the catalogue twice in one snapshot. */
export function buildIndexDataFromSnapshot(db: Kysely<Database>): Promise<BaseIndex> {
  return inOneSnapshot(db, (snapshot) => buildIndex((visit) => forEachPublished(snapshot, visit)));
}

/** Where the child connects (the same database as the server), and the file it writes. */
export interface BuildConnection {
  url: string;
  pgSchema?: string;
}
export type BuildRequest = BuildConnection & { file: string };

/** The same build in a child process (index-build.process.ts). */
export function buildIndexDataInProcess(connection: BuildConnection): Promise<BaseIndex> {
  const file = join(tmpdir(), `shop-search-index-${process.pid}-${randomUUID()}.bin`);
  const request: BuildRequest = { ...connection, file };
  return new Promise<BaseIndex>((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./index-build.process.ts', import.meta.url))], {
      env: { ...process.env, SEARCH_INDEX_BUILD: JSON.stringify(request) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`the search index build stopped with code ${code}`);
        resolve(readIndexFile(file));
      } catch (error) {
        reject(error as Error);
      } finally {
        rmSync(file, { force: true });
      }
    });
  });
}

type IndexArrays = Omit<BaseIndex, 'terms'>;
/** Which typed array each of the index's arrays is, so it is read back as what it was written. */
const arrayKinds = { Int32Array, Uint8Array } as const;
interface IndexFileHeader {
  terms: string[];
  arrays: Array<{ name: keyof IndexArrays; kind: keyof typeof arrayKinds; length: number }>;
}

/**
 * The index's arrays in a file: a JSON header (terms, each array's kind and length), then each
 * array's bytes. Read back, each array gets a buffer of its own, read straight from the file: a
 * file read whole (and v8.deserialize's views into it) kept the whole file's 30 MB alive beside
 * the copies it made of arrays that were not aligned in it.
 */
export function writeIndexFile(file: string, data: BaseIndex): void {
  const { terms, ...arrays } = data;
  const entries = Object.entries(arrays) as Array<[keyof IndexArrays, Int32Array | Uint8Array]>;
  const header: IndexFileHeader = {
    terms,
    arrays: entries.map(([name, array]) => ({
      name,
      kind: array instanceof Int32Array ? 'Int32Array' : 'Uint8Array',
      length: array.length,
    })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const headerLength = Buffer.alloc(4);
  headerLength.writeUInt32LE(headerBytes.length);
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, headerLength);
    writeSync(fd, headerBytes);
    for (const [, array] of entries) writeSync(fd, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  } finally {
    closeSync(fd);
  }
}

export function readIndexFile(file: string): BaseIndex {
  const fd = openSync(file, 'r');
  try {
    const readExactly = (into: Uint8Array, position: number) => {
      for (let done = 0; done < into.length;) {
        const read = readSync(fd, into, done, into.length - done, position + done);
        if (read === 0) throw new Error('the search index file is shorter than its header says');
        done += read;
      }
    };
    const headerLength = Buffer.alloc(4);
    readExactly(headerLength, 0);
    const headerBytes = Buffer.alloc(headerLength.readUInt32LE());
    readExactly(headerBytes, 4);
    const header = JSON.parse(headerBytes.toString()) as IndexFileHeader;
    let position = 4 + headerBytes.length;
    const arrays: Record<string, Int32Array | Uint8Array> = {};
    for (const { name, kind, length } of header.arrays) {
      const array = new arrayKinds[kind](length);
      readExactly(new Uint8Array(array.buffer), position);
      position += array.byteLength;
      arrays[name] = array;
    }
    return { terms: header.terms, ...(arrays as unknown as IndexArrays) };
  } finally {
    closeSync(fd);
  }
}
