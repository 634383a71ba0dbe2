import { describe, expect, it } from 'vitest';
import { productCsvHeader } from '../../contract/admin/products-csv.ts';
import { ERRORS_A_BATCH, MAX_CHARS_IN_THREAD, readProductCsvOffThread, ROWS_A_BATCH } from './products-csv-reader.ts';

/** A file of one product, as the back office's CSV has it, padded to `chars` with trailing blank lines. */
const file = (n: number, chars = 0) => {
  const text = `${productCsvHeader.join(',')}\ntabla-${n},Tabla ${n},published,Tablas,Raag,,,,,,,,,\n`;
  return text + '\n'.repeat(Math.max(0, chars - text.length));
};

/**
 * What the reading thread holds at once (issue 31): each waiting preview holds its file, and what it
 * becomes, in memory. An outside attack ran six 20 MB previews at once and the instance went to
 * 843 MB; files beyond two at the upload limit are refused at once, small ones still share the thread.
 */
describe('the products CSV reader thread', () => {
  it('takes two files at the upload limit at once and refuses a third with a 429, then takes the next', async () => {
    const large = Math.floor(MAX_CHARS_IN_THREAD / 2);
    const settled = await Promise.allSettled([1, 2, 3].map((n) => readProductCsvOffThread(file(n, large))));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ status: 429 });
    await expect(readProductCsvOffThread(file(4, large))).resolves.toMatchObject({ rowCount: 1 });
  });

  it('reads several small files at once', async () => {
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => readProductCsvOffThread(file(n))));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
  });

  it('answers a file of many batches whole and in order, rows and errors', async () => {
    // Rows a few batches' worth, then more rows with a wrong price than a batch of errors holds.
    const good = 2 * ROWS_A_BATCH + 7;
    const bad = ERRORS_A_BATCH + 7;
    const line = (n: number, price: string) =>
      `tabla-${n},Tabla ${n},published,Tablas,Raag,A tabla,,,,,Standard,${price},0,1`;
    const lines = Array.from({ length: good + bad }, (_, n) => line(n, n < good ? '10.00' : 'lots'));
    const read = await readProductCsvOffThread(`${productCsvHeader.join(',')}\n${lines.join('\n')}\n`);
    expect(read.rowCount).toBe(good + bad);
    // The header is row 1.
    expect(read.rows.map((row) => [row.row, row.product.urlKey])).toEqual(
      Array.from({ length: good }, (_, n) => [n + 2, `tabla-${n}`]),
    );
    expect(read.errors.map((error) => error.row)).toEqual(Array.from({ length: bad }, (_, n) => good + n + 2));
  });

  it('tells staff in plain words that a file separated by semicolons or tabs must be saved as comma-separated CSV', async () => {
    for (const [separator, name] of [
      [';', 'semicolons'],
      ['\t', 'tabs'],
    ] as const) {
      const text = `${productCsvHeader.join(separator)}\ntabla-1${separator}Tabla 1${separator}published\n`;
      const refused = await readProductCsvOffThread(text).catch((error: unknown) => error);
      expect(refused).toMatchObject({ field: 'file' });
      expect((refused as Error).message).toBe(
        `This file uses ${name} between its columns; save it as CSV, comma-separated, and send it again.`,
      );
    }
  });
});
