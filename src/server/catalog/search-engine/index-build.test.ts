import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readIndexFile, writeIndexFile } from './index-build.ts';
import { buildIndex, ProductIndex, type IndexedProduct, type IndexQuery } from './product-index.ts';

/** The file a child process leaves the built index in (docs/decisions/0017-in-process-search-index.md). */

const products: IndexedProduct[] = [
  {
    id: 3,
    title: 'Sheesham Tabla Set',
    searchTags: 'Tablas',
    searchText: 'hand tuned',
    typeId: 7,
    brandId: 1,
    lowestPrice: 12_999,
  },
  {
    id: 8,
    title: 'Bhangra Dhol',
    searchTags: 'Dhols',
    searchText: 'mango wood shell',
    typeId: 9,
    brandId: 2,
    lowestPrice: 8_999,
  },
  {
    id: 11,
    title: 'Dhol Strap',
    searchTags: 'Accessories',
    searchText: 'for a dhol or a tabla',
    typeId: 12,
    brandId: 1,
    lowestPrice: 999,
  },
];

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the search index file', () => {
  it('gives back an index that answers as the one written did', async () => {
    const built = await buildIndex(async (visit) => products.forEach(visit));
    dir = mkdtempSync(join(tmpdir(), 'index-file-'));
    const file = join(dir, 'index.bin');
    writeIndexFile(file, built);
    const [original, read] = [new ProductIndex(built), new ProductIndex(readIndexFile(file))];
    const queries: Array<Partial<IndexQuery>> = [
      { keyword: 'dhol' },
      { keyword: 'tabla', sort: 'price-asc' },
      { keyword: 'tabal' },
      { brandIds: [1], sort: 'price-desc' },
      { sort: 'newest' },
    ];
    for (const query of queries) {
      const full: IndexQuery = { keyword: '', sort: 'relevance', offset: 0, limit: 10, ...query };
      const answer = read.search(full);
      expect(answer.ids.length).toBeGreaterThan(0);
      expect(answer).toEqual(original.search(full));
    }
  });
});
