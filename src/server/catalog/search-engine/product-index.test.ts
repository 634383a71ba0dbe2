import { describe, expect, it } from 'vitest';
import { randomFor } from '../demo/generate-products.ts';
import { buildIndex, ProductIndex, type IndexedProduct, type IndexQuery } from './product-index.ts';
import { termsOf } from './terms.ts';

/** The in-process search index (docs/decisions/0017-in-process-search-index.md), without a database. */

function product(id: number, fields: Partial<IndexedProduct> = {}): IndexedProduct {
  return {
    id,
    title: `Item ${id}`,
    searchTags: '',
    searchText: '',
    typeId: 1,
    brandId: 1,
    lowestPrice: 1000,
    ...fields,
  };
}

async function indexOf(products: IndexedProduct[]): Promise<ProductIndex> {
  const inOrder = [...products].sort((a, b) => a.id - b.id);
  return new ProductIndex(await buildIndex(async (visit) => inOrder.forEach(visit)));
}

function search(index: ProductIndex, query: Partial<IndexQuery>) {
  return index.search({ keyword: '', sort: 'relevance', offset: 0, limit: 100, ...query });
}

/** A catalogue of `count` products made of a few words, types, brands and prices, the same every run. */
function generatedCatalogue(count: number, seed: number): IndexedProduct[] {
  const random = randomFor(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const words = ['dhol', 'dholak', 'tabla', 'sitar', 'harmonium', 'brass', 'wood', 'case', 'strap', 'bag', 'tuned'];
  const phrase = (n: number) => Array.from({ length: 1 + Math.floor(random() * n) }, () => pick(words)).join(' ');
  return Array.from({ length: count }, (_, i) =>
    product(i + 1, {
      title: phrase(3),
      searchTags: phrase(2),
      searchText: phrase(6),
      typeId: pick([10, 11, 12, 13]),
      brandId: pick([1, 2, 3]),
      lowestPrice: Math.floor(random() * 20) * 500,
    }),
  );
}

describe('the product index', () => {
  it('ranks a title match above type and brand, and those above the description', async () => {
    const index = await indexOf([
      product(1, { title: 'Practice pad', searchText: 'Goes well with a sheesham tabla.' }),
      product(2, { title: 'Drum key', searchTags: 'Tablas Drums' }),
      product(3, { title: 'Sheesham tabla set' }),
    ]);
    expect(search(index, { keyword: 'tabla' }).ids).toEqual([3, 2, 1]);
  });

  it('matches each word as a prefix and with its synonyms, and needs every word', async () => {
    const index = await indexOf([
      product(1, { title: 'Wedding Dholak' }),
      product(2, { title: 'Bhangra Dhol' }),
      product(3, { title: 'Scale Changer Harmonium' }),
      product(4, { title: 'Harmonium Stand', searchText: 'folds flat' }),
    ]);
    expect(new Set(search(index, { keyword: 'dho' }).ids)).toEqual(new Set([1, 2]));
    expect(search(index, { keyword: 'dholki' }).ids).toEqual([1]);
    expect(new Set(search(index, { keyword: 'peti' }).ids)).toEqual(new Set([3, 4]));
    expect(search(index, { keyword: 'harmonium flat' }).ids).toEqual([4]);
    expect(search(index, { keyword: 'wedding harmonium' }).ids).toEqual([]);
    expect(search(index, { keyword: 'harmoniums' }).total).toBe(2);
  });

  it('finds a word of five letters or more with one letter wrong, missing, extra or swapped, but never widens a real word', async () => {
    const index = await indexOf([
      product(1, { title: 'Scale Changer Harmonium' }),
      product(2, { title: 'Sheesham Tabla' }),
      product(3, { title: 'Mridangam' }),
      product(4, { title: 'Brass Bell' }),
      product(5, { title: 'Bass Drum' }),
      product(6, { title: 'Santoor' }),
    ]);
    expect(search(index, { keyword: 'harmonum' }).ids).toEqual([1]); // missing
    expect(search(index, { keyword: 'tabal' }).ids).toEqual([2]); // swapped
    expect(search(index, { keyword: 'mridangamm' }).ids).toEqual([3]); // extra
    expect(search(index, { keyword: 'santorr' }).ids).toEqual([6]); // wrong
    expect(search(index, { keyword: 'sheesham tabal' }).ids).toEqual([2]);
    // "brass" is a word of the catalogue: it is not widened to "bass".
    expect(search(index, { keyword: 'brass' }).ids).toEqual([4]);
    // Four letters is too short to guess at.
    expect(search(index, { keyword: 'bras' }).ids).toEqual([4]);
    expect(search(index, { keyword: 'tbla' }).ids).toEqual([]);
  });

  it('counts each type and brand as a brute-force count over a generated catalogue does', async () => {
    const catalogue = generatedCatalogue(600, 12);
    const index = await indexOf(catalogue);
    const terms = new Map(catalogue.map((p) => [p.id, termsOf(`${p.title} ${p.searchTags} ${p.searchText}`)]));
    const matches = (p: IndexedProduct, keyword: string) =>
      termsOf(keyword).every((word) => terms.get(p.id)!.some((term) => term.startsWith(word)));
    for (const keyword of ['', 'dhol', 'tabla wood', 'case', 'tun', 'harmonium brass bag']) {
      for (const [typeIds, brandIds] of [
        [undefined, undefined],
        [[10, 12], undefined],
        [undefined, [2]],
        [[11], [1, 3]],
      ] as const) {
        const answer = search(index, { keyword, typeIds, brandIds });
        const found = catalogue.filter((p) => matches(p, keyword));
        const typeShown = (p: IndexedProduct) => !typeIds || (typeIds as readonly number[]).includes(p.typeId);
        const brandShown = (p: IndexedProduct) => !brandIds || (brandIds as readonly number[]).includes(p.brandId);
        const tally = (rows: IndexedProduct[], key: (p: IndexedProduct) => number) => {
          const counts = new Map<number, number>();
          for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
          return counts;
        };
        expect(answer.total).toBe(found.filter((p) => typeShown(p) && brandShown(p)).length);
        expect(answer.typeCounts).toEqual(tally(found.filter(brandShown), (p) => p.typeId));
        expect(answer.brandCounts).toEqual(tally(found.filter(typeShown), (p) => p.brandId));
      }
    }
  });

  it('orders by price either way and by newest, and pages deep without a repeat or a gap', async () => {
    const catalogue = generatedCatalogue(500, 7);
    const index = await indexOf(catalogue);
    const byPrice = (direction: 1 | -1) =>
      [...catalogue].sort((a, b) => direction * (a.lowestPrice - b.lowestPrice) || a.id - b.id).map((p) => p.id);
    const everyPage = (query: Partial<IndexQuery>) =>
      Array.from({ length: 14 }, (_, page) => search(index, { ...query, offset: page * 36, limit: 36 }).ids).flat();
    expect(everyPage({ sort: 'price-asc' })).toEqual(byPrice(1));
    expect(everyPage({ sort: 'price-desc' })).toEqual(byPrice(-1));
    expect(everyPage({ sort: 'newest' })).toEqual(catalogue.map((p) => p.id).reverse());
    expect(everyPage({})).toEqual(catalogue.map((p) => p.id));
    // Ranked: page after page gives each match once.
    const ranked = everyPage({ keyword: 'wood' });
    expect(new Set(ranked).size).toBe(ranked.length);
    expect(ranked.length).toBe(search(index, { keyword: 'wood' }).total);
    expect(search(index, { keyword: 'wood', offset: 10_000 }).ids).toEqual([]);
  });

  it('answers after products change, arrive or leave as an index built afresh would', async () => {
    const before = generatedCatalogue(300, 3);
    const after = generatedCatalogue(340, 4).map((p, i) =>
      i < 300
        ? { ...before[i]!, ...(i % 7 === 0 ? { title: p.title, lowestPrice: p.lowestPrice, typeId: p.typeId } : {}) }
        : p,
    );
    const gone = new Set(after.filter((p) => p.id % 11 === 0).map((p) => p.id));
    const final = after.filter((p) => !gone.has(p.id));
    const changed = await indexOf(before);
    for (const p of after) if (!gone.has(p.id)) changed.upsert(p);
    for (const id of gone) changed.remove(id);
    const fresh = await indexOf(final);
    expect(changed.size).toBe(fresh.size);
    for (const keyword of ['', 'dhol', 'wood case', 'tabla']) {
      for (const sort of ['newest', 'relevance'] as const) {
        const a = search(changed, { keyword, sort, limit: 1000 });
        const b = search(fresh, { keyword, sort, limit: 1000 });
        expect({ ...a, ids: sort === 'newest' ? a.ids : new Set(a.ids) }).toEqual({
          ...b,
          ids: sort === 'newest' ? b.ids : new Set(b.ids),
        });
      }
    }
  });
});
