import { queryWordsOf, termsOf, withinOneEdit, type QueryWord } from './terms.ts';

/**
 * The published catalogue as an inverted index in memory (docs/decisions/0017-in-process-search-index.md).
 * Built once from the database, then changed product by product: a changed product goes into a
 * small overlay and its old entry is hidden, until the keeper builds a fresh index. Every answer
 * is computed here, so it is the same whichever database the shop runs on.
 */

/** What search reads of a published product. */
export interface IndexedProduct {
  id: number;
  title: string;
  /** The type's, its ancestors' and the brand's names and staff's tags (catalog/search-index.ts). */
  searchTags: string;
  /** The sizes and styles, then the description. */
  searchText: string;
  typeId: number;
  brandId: number;
  /** The lowest price of its sizes, in pence: what "price low to high" orders by. */
  lowestPrice: number;
}

export type IndexSort = 'relevance' | 'price-asc' | 'price-desc' | 'newest';

export interface IndexQuery {
  keyword: string;
  /** Any of these types (descendants already added); undefined for any type. */
  typeIds?: readonly number[];
  /** Any of these brands; undefined for any brand. */
  brandIds?: readonly number[];
  sort: IndexSort;
  offset: number;
  limit: number;
}

export interface IndexAnswer {
  /** The page's product ids, in order. */
  ids: number[];
  total: number;
  /** Per type id: products matching the keyword and the brand filter (not the type filter). */
  typeCounts: Map<number, number>;
  /** Per brand id: products matching the keyword and the type filter (not the brand filter). */
  brandCounts: Map<number, number>;
}

/** Column weights, as bm25 had them in SQLite: the title, then what the product is, then the rest. */
const TITLE_WEIGHT = 10;
const TAGS_WEIGHT = 5;
const TEXT_WEIGHT = 1;
/** A term's weighted count in one product is kept in a byte: 25 title mentions is plenty. */
const MAX_WEIGHT = 255;
/** bm25's usual constants (FTS5's too). */
const K1 = 1.2;
const B = 0.75;
/** A document's place fits in the low 21 bits of a sort key (see sortKey). */
const DOC_BITS = 2 ** 21;
const MAX_PRICE_KEY = 2 ** 30 - 1;
const MAX_ID_KEY = 2 ** 31 - 1;
const MAX_SCORE_KEY = 2 ** 27 - 1;
/** Typo look-ups are remembered per word, up to this many words, until the next build. */
const TYPO_MEMO_SIZE = 10_000;

/** An Int32Array that grows as a list does. */
class IntList {
  values = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
  toArray(): Int32Array {
    return this.values.slice(0, this.length);
  }
}

/** A product's terms and their weighted counts, and how many terms it has in all. */
function weighTerms(product: IndexedProduct): { weights: Map<string, number>; length: number } {
  const weights = new Map<string, number>();
  let length = 0;
  for (const [text, weight] of [
    [product.title, TITLE_WEIGHT],
    [product.searchTags, TAGS_WEIGHT],
    [product.searchText, TEXT_WEIGHT],
  ] as const) {
    for (const term of termsOf(text)) {
      weights.set(term, (weights.get(term) ?? 0) + weight);
      length++;
    }
  }
  return { weights, length };
}

/** Products one by one, in ascending id order, the same ones each time it is called. */
export type ProductSource = (visit: (product: IndexedProduct) => void) => Promise<void>;

/**
 * Builds the index's arrays from the products, reading them twice: first to count each term's
 * products, then to fill arrays of exactly that size. Nothing is allocated and dropped on the way,
 * which at 100,000 products kept 150 MB of the process's memory that the allocator never gave back.
 */
export async function buildIndex(forEachProduct: ProductSource): Promise<BaseIndex> {
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  const documentCounts = new IntList();
  const ids = new IntList();
  const typeIds = new IntList();
  const brandIds = new IntList();
  const prices = new IntList();
  const lengths = new IntList();
  let lastId = -Infinity;
  await forEachProduct((product) => {
    if (product.id <= lastId) throw new Error('products must come in ascending id order');
    lastId = product.id;
    const { weights, length } = weighTerms(product);
    for (const term of weights.keys()) {
      let termId = termIds.get(term);
      if (termId === undefined) {
        termId = termNames.length;
        termIds.set(term, termId);
        termNames.push(term);
        documentCounts.push(0);
      }
      documentCounts.values[termId]!++;
    }
    ids.push(product.id);
    typeIds.push(product.typeId);
    brandIds.push(product.brandId);
    prices.push(Math.min(product.lowestPrice, MAX_PRICE_KEY));
    lengths.push(length);
  });

  // Terms in sorted order, so a prefix is a range.
  const order = termNames.map((_, i) => i).sort((a, b) => (termNames[a]! < termNames[b]! ? -1 : 1));
  const starts = new Int32Array(order.length + 1);
  const cursor = new Int32Array(order.length);
  order.forEach((termId, position) => {
    starts[position + 1] = starts[position]! + documentCounts.values[termId]!;
    cursor[termId] = starts[position]!;
  });
  const postingDocs = new Int32Array(starts[order.length]!);
  const postingWeights = new Uint8Array(starts[order.length]!);
  let doc = 0;
  await forEachProduct((product) => {
    if (ids.values[doc] !== product.id) throw new Error('the products changed between the two readings');
    for (const [term, weight] of weighTerms(product).weights) {
      const termId = termIds.get(term);
      if (termId === undefined) throw new Error('the products changed between the two readings');
      const at = cursor[termId]!++;
      postingDocs[at] = doc;
      postingWeights[at] = Math.min(weight, MAX_WEIGHT);
    }
    doc++;
  });
  if (doc !== ids.length) throw new Error('the products changed between the two readings');

  const { gaps, gapStarts } = encodeGaps(postingDocs, starts);
  const docPrices = prices.toArray();
  const docs = Int32Array.from({ length: ids.length }, (_, i) => i);
  return {
    terms: order.map((termId) => termNames[termId]!),
    starts,
    gapStarts,
    postingGaps: gaps,
    postingWeights,
    ids: ids.toArray(),
    typeIds: typeIds.toArray(),
    brandIds: brandIds.toArray(),
    prices: docPrices,
    lengths: lengths.toArray(),
    byPriceAscending: docs.slice().sort((a, b) => docPrices[a]! - docPrices[b]! || a - b),
    byPriceDescending: docs.sort((a, b) => docPrices[b]! - docPrices[a]! || a - b),
  };
}

export interface BaseIndex {
  terms: string[];
  /** Term i's postings are the i-th run of postingGaps, and postingWeights[starts[i]..starts[i+1]). */
  starts: Int32Array;
  /**
   * Each term's documents, ascending, as the gaps between them (the first from 0), seven bits to a
   * byte with the top bit set on all but a gap's last byte. A term is in 4,000 of 100,000
   * products on average, so most gaps take a byte: 5.5 MB where whole numbers took 21 MB.
   */
  postingGaps: Uint8Array;
  /** Where term i's run of gaps begins in postingGaps. */
  gapStarts: Int32Array;
  postingWeights: Uint8Array;
  /** Per document, ascending by id. */
  ids: Int32Array;
  typeIds: Int32Array;
  brandIds: Int32Array;
  prices: Int32Array;
  lengths: Int32Array;
  /** Documents in price order, low to high and high to low (ties by id). */
  byPriceAscending: Int32Array;
  byPriceDescending: Int32Array;
}

/** The `k` smallest keys, in order (quickselect, then a sort of those alone). Keys are distinct. */
function smallestInOrder(keys: Float64Array, count: number, k: number): Float64Array {
  if (k < count) {
    let left = 0;
    let right = count - 1;
    while (right > left) {
      const pivot = keys[(left + right) >> 1]!;
      let i = left;
      let j = right;
      while (i <= j) {
        while (keys[i]! < pivot) i++;
        while (keys[j]! > pivot) j--;
        if (i <= j) {
          const swap = keys[i]!;
          keys[i++] = keys[j]!;
          keys[j--] = swap;
        }
      }
      if (k - 1 <= j) right = j;
      else if (k - 1 >= i) left = i;
      else break;
    }
  }
  return keys.subarray(0, Math.min(k, count)).sort();
}

/** Each term's ascending documents as gaps, seven bits to a byte (see BaseIndex.postingGaps). */
function encodeGaps(postingDocs: Int32Array, starts: Int32Array): { gaps: Uint8Array; gapStarts: Int32Array } {
  const terms = starts.length - 1;
  const gapStarts = new Int32Array(terms + 1);
  const sizes = (write?: Uint8Array) => {
    let at = 0;
    for (let term = 0; term < terms; term++) {
      gapStarts[term] = at;
      let previous = 0;
      for (let p = starts[term]!; p < starts[term + 1]!; p++) {
        let gap = postingDocs[p]! - previous;
        previous = postingDocs[p]!;
        while (gap >= 0x80) {
          if (write) write[at] = (gap & 0x7f) | 0x80;
          at++;
          gap >>>= 7;
        }
        if (write) write[at] = gap;
        at++;
      }
    }
    gapStarts[terms] = at;
    return at;
  };
  const gaps = new Uint8Array(sizes());
  sizes(gaps);
  return { gaps, gapStarts };
}

/** Ids such as types' and brands' as small dense numbers, so a filter or a tally is an array look-up. */
class Slots {
  private readonly slotOf = new Map<number, number>();
  readonly ids: number[] = [];
  slot(id: number): number {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.slotOf.set(id, slot);
      this.ids.push(id);
    }
    return slot;
  }
  /** 1 for the slots of the given ids; undefined (anything goes) when no list is given. */
  allowed(ids: readonly number[] | undefined): Uint8Array | undefined {
    if (!ids) return undefined;
    const allowed = new Uint8Array(this.ids.length);
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) allowed[slot] = 1;
    }
    return allowed;
  }
  counts(tally: Int32Array): Map<number, number> {
    const counts = new Map<number, number>();
    tally.forEach((count, slot) => {
      if (count > 0) counts.set(this.ids[slot]!, count);
    });
    return counts;
  }
}

export class ProductIndex {
  private readonly base: BaseIndex;
  private readonly baseCount: number;
  /** Documents past the base: products changed since it was built, each with its weighted terms. */
  private readonly overlay: Array<Map<string, number>> = [];
  /** Per document (base, then overlay): its product's id, type and brand slots, lowest price, term count. */
  private ids: Int32Array;
  private typeSlots: Int32Array;
  private brandSlots: Int32Array;
  private prices: Int32Array;
  private lengths: Int32Array;
  /** 1 where a document no longer shows: its product changed (a newer document has it) or left. */
  private removed: Uint8Array;
  private documentCount: number;
  private readonly types = new Slots();
  private readonly brands = new Slots();
  /** Base documents in price order, low to high and high to low (ties by id). */
  private readonly byPriceAscending: Int32Array;
  private readonly byPriceDescending: Int32Array;
  /** The document that shows each overlay product now. */
  private readonly overlayDocOf = new Map<number, number>();
  private liveCount: number;
  private totalLength: number;
  private readonly typoMemo = new Map<string, number[]>();
  // Scratch space reused by every query (one runs at a time: a query is synchronous), sized to the
  // documents: a query allocates nothing in proportion to its matches, so a broad word makes no
  // garbage for the collector (large arrays went straight to the old generation and grew the heap).
  private stamps = new Uint32Array(0);
  private wordStamps = new Uint32Array(0);
  private stamp = 0;
  private scores = new Float64Array(0);
  private wordWeights = new Int32Array(0);
  /** Two lists of documents: the candidates so far and the next word's matches among them. */
  private matchedA = new Int32Array(0);
  private matchedB = new Int32Array(0);
  /** Sort keys of a ranked query's matches. */
  private keys = new Float64Array(0);

  constructor(base: BaseIndex) {
    this.base = base;
    this.baseCount = base.ids.length;
    if (this.baseCount >= DOC_BITS) throw new Error('too many products for the search index');
    this.ids = base.ids;
    this.typeSlots = base.typeIds.map((id) => this.types.slot(id));
    this.brandSlots = base.brandIds.map((id) => this.brands.slot(id));
    this.prices = base.prices;
    this.lengths = base.lengths;
    this.removed = new Uint8Array(this.baseCount);
    this.documentCount = this.baseCount;
    this.liveCount = this.baseCount;
    this.totalLength = base.lengths.reduce((sum, length) => sum + length, 0);
    this.byPriceAscending = base.byPriceAscending;
    this.byPriceDescending = base.byPriceDescending;
  }

  /** Products in the index. */
  get size(): number {
    return this.liveCount;
  }

  /** Changed products kept beside the built index: past a few hundred, build a fresh one. */
  get overlaySize(): number {
    return this.overlay.length;
  }

  /** The document that shows a product now, or -1. */
  private docOf(productId: number): number {
    const inOverlay = this.overlayDocOf.get(productId);
    if (inOverlay !== undefined) return inOverlay;
    let low = 0;
    let high = this.baseCount - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const id = this.base.ids[middle]!;
      if (id === productId) return this.removed[middle] ? -1 : middle;
      if (id < productId) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Takes a product out (archived, back to draft, deleted). */
  remove(productId: number): void {
    const doc = this.docOf(productId);
    if (doc < 0) return;
    this.removed[doc] = 1;
    this.overlayDocOf.delete(productId);
    this.liveCount--;
    this.totalLength -= this.lengths[doc]!;
  }

  /** Puts a product in, or its new state in place of the old one. */
  upsert(product: IndexedProduct): void {
    this.remove(product.id);
    const doc = this.documentCount;
    if (doc >= DOC_BITS) throw new Error('too many products for the search index');
    if (doc >= this.ids.length) this.grow(Math.max(doc + 1, Math.ceil(this.ids.length * 1.25) + 64));
    const { weights, length } = weighTerms(product);
    this.overlay.push(weights);
    this.ids[doc] = product.id;
    this.typeSlots[doc] = this.types.slot(product.typeId);
    this.brandSlots[doc] = this.brands.slot(product.brandId);
    this.prices[doc] = Math.min(product.lowestPrice, MAX_PRICE_KEY);
    this.lengths[doc] = length;
    this.removed[doc] = 0;
    this.overlayDocOf.set(product.id, doc);
    this.documentCount++;
    this.liveCount++;
    this.totalLength += length;
  }

  private grow(capacity: number): void {
    const grown = <T extends Int32Array | Uint8Array>(array: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(array);
      return next;
    };
    const ints = (n: number) => new Int32Array(n);
    this.ids = grown(this.ids, ints);
    this.typeSlots = grown(this.typeSlots, ints);
    this.brandSlots = grown(this.brandSlots, ints);
    this.prices = grown(this.prices, ints);
    this.lengths = grown(this.lengths, ints);
    this.removed = grown(this.removed, (n) => new Uint8Array(n));
  }

  /** Base terms beginning with `prefix`: a range of the sorted terms. */
  private termsWithPrefix(prefix: string, into: Set<number>): void {
    const { terms } = this.base;
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (terms[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    for (let i = low; i < terms.length && terms[i]!.startsWith(prefix); i++) into.add(i);
  }

  /** Base terms one edit from the word (remembered per word until the next build). */
  private termsOneEditFrom(target: string): number[] {
    const known = this.typoMemo.get(target);
    if (known) return known;
    const found: number[] = [];
    const { terms } = this.base;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      if (Math.abs(term.length - target.length) <= 1 && withinOneEdit(term, target)) found.push(i);
    }
    if (this.typoMemo.size >= TYPO_MEMO_SIZE) this.typoMemo.clear();
    this.typoMemo.set(target, found);
    return found;
  }

  private prepareScratch(): void {
    const needed = this.documentCount;
    if (this.stamps.length < needed) {
      const capacity = Math.max(needed, Math.ceil(this.stamps.length * 1.25) + 64);
      this.stamps = new Uint32Array(capacity);
      this.wordStamps = new Uint32Array(capacity);
      this.scores = new Float64Array(capacity);
      this.wordWeights = new Int32Array(capacity);
      this.matchedA = new Int32Array(capacity);
      this.matchedB = new Int32Array(capacity);
      this.keys = new Float64Array(capacity);
      this.stamp = 0;
    }
    if (this.stamp > 0xffff_fff0) {
      this.stamps.fill(0);
      this.wordStamps.fill(0);
      this.stamp = 0;
    }
  }

  /**
   * One word's matches among the candidates (every live document when `candidateStamp` is 0),
   * written to `into`: each document's weighted count of the word goes in `wordWeights`. Returns
   * how many matched; `documentFrequency` is left with how many documents hold the word at all.
   * `oneEdit` says whether to match terms one edit away instead of those the word begins.
   */
  private documentFrequency = 0;
  private matchWord(word: QueryWord, oneEdit: boolean, candidateStamp: number, into: Int32Array): number {
    const { starts, gapStarts, postingGaps, postingWeights } = this.base;
    const { removed, wordStamps, wordWeights, stamps } = this;
    const terms = new Set<number>();
    if (oneEdit)
      for (const target of word.typoTargets) for (const term of this.termsOneEditFrom(target)) terms.add(term);
    else for (const prefix of word.prefixes) this.termsWithPrefix(prefix, terms);
    const wordStamp = ++this.stamp;
    let matched = 0;
    let documentFrequency = 0;
    for (const term of terms) {
      const end = starts[term + 1]!;
      let gapAt = gapStarts[term]!;
      let doc = 0;
      for (let at = starts[term]!; at < end; at++) {
        let byte = postingGaps[gapAt++]!;
        let gap = byte & 0x7f;
        for (let shift = 7; byte >= 0x80; shift += 7) {
          byte = postingGaps[gapAt++]!;
          gap |= (byte & 0x7f) << shift;
        }
        doc += gap;
        if (removed[doc] === 1) continue;
        if (wordStamps[doc] === wordStamp) {
          wordWeights[doc]! += postingWeights[at]!;
          continue;
        }
        wordStamps[doc] = wordStamp;
        wordWeights[doc] = postingWeights[at]!;
        documentFrequency++;
        if (candidateStamp === 0 || stamps[doc] === candidateStamp) into[matched++] = doc;
      }
    }
    // Changed products, term by term: there are few of them.
    for (let i = 0; i < this.overlay.length; i++) {
      const doc = this.baseCount + i;
      if (removed[doc] === 1) continue;
      for (const [term, weight] of this.overlay[i]!) {
        const matches = oneEdit
          ? word.typoTargets.some((target) => withinOneEdit(term, target))
          : word.prefixes.some((prefix) => term.startsWith(prefix));
        if (!matches) continue;
        if (wordStamps[doc] === wordStamp) {
          wordWeights[doc]! += weight;
          continue;
        }
        wordStamps[doc] = wordStamp;
        wordWeights[doc] = weight;
        documentFrequency++;
        if (candidateStamp === 0 || stamps[doc] === candidateStamp) into[matched++] = doc;
      }
    }
    this.documentFrequency = documentFrequency;
    return matched;
  }

  /**
   * Documents matching every word, with their bm25 scores in `scores`: the returned list's first
   * `count`. A word matches the terms it begins (itself or a synonym); a word that begins none,
   * when long enough, matches the terms one edit from it instead (docs/rules.md#catalogue-and-search).
   */
  private matchWords(words: QueryWord[]): { list: Int32Array; count: number } {
    const averageLength = this.liveCount > 0 ? this.totalLength / this.liveCount : 1;
    const { scores, wordWeights, lengths, stamps } = this;
    let list = this.matchedA;
    let spare = this.matchedB;
    let count = 0;
    let candidateStamp = 0;
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      count = this.matchWord(word, false, candidateStamp, spare);
      if (this.documentFrequency === 0 && word.typoTargets.length > 0)
        count = this.matchWord(word, true, candidateStamp, spare);
      [list, spare] = [spare, list];
      // bm25 as FTS5 computes it, the word with its alternatives as one phrase.
      const n = this.documentFrequency;
      const idf = Math.max(Math.log((this.liveCount - n + 0.5) / (n + 0.5)), 1e-6);
      const nextStamp = ++this.stamp;
      for (let i = 0; i < count; i++) {
        const doc = list[i]!;
        const weight = wordWeights[doc]!;
        const part = (idf * (weight * (K1 + 1))) / (weight + K1 * (1 - B + (B * lengths[doc]!) / averageLength));
        scores[doc] = w === 0 ? part : scores[doc]! + part;
        stamps[doc] = nextStamp;
      }
      candidateStamp = nextStamp;
    }
    return { list, count };
  }

  /**
   * A number that orders documents as the sort asks, the document's place in its low bits so a
   * native numeric sort orders them and each can be read back. Ties go by place, which is id order
   * for all but changed products.
   */
  private sortKey(doc: number, sort: IndexSort, ranked: boolean, scoreSteps = 0): number {
    let primary: number;
    if (sort === 'price-asc') primary = this.prices[doc]!;
    else if (sort === 'price-desc') primary = MAX_PRICE_KEY - this.prices[doc]!;
    else if (sort === 'newest') primary = MAX_ID_KEY - this.ids[doc]!;
    else if (ranked) primary = MAX_SCORE_KEY - Math.min(Math.round(this.scores[doc]! * scoreSteps), MAX_SCORE_KEY);
    else primary = this.ids[doc]!;
    return primary * DOC_BITS + doc;
  }

  /**
   * A page of the shown documents in an order that needs no scores: the base documents in their
   * standing order for it, merged with the shown changed products.
   */
  private pageInOrder(sort: IndexSort, shown: (doc: number) => boolean, offset: number, limit: number): number[] {
    const extra: number[] = [];
    for (let doc = this.baseCount; doc < this.documentCount; doc++) {
      if (!this.removed[doc] && shown(doc)) extra.push(this.sortKey(doc, sort, false));
    }
    extra.sort((a, b) => a - b);
    const order =
      sort === 'price-asc' ? this.byPriceAscending : sort === 'price-desc' ? this.byPriceDescending : undefined;
    const baseAt = (i: number) => (order ? order[i]! : sort === 'newest' ? this.baseCount - 1 - i : i);
    const page: number[] = [];
    let position = 0;
    let next = 0;
    let i = 0;
    while (page.length < limit) {
      while (i < this.baseCount && (this.removed[baseAt(i)] || !shown(baseAt(i)))) i++;
      const fromBase = i < this.baseCount ? this.sortKey(baseAt(i), sort, false) : Infinity;
      const fromExtra = next < extra.length ? extra[next]! : Infinity;
      if (fromBase === Infinity && fromExtra === Infinity) break;
      const key = Math.min(fromBase, fromExtra);
      if (key === fromBase) i++;
      else next++;
      if (position++ >= offset) page.push(this.ids[key % DOC_BITS]!);
    }
    return page;
  }

  /**
   * Every product the keyword's words find, by id (ascending), as `search` finds them: what the
   * back office's stock page lists the sizes of (docs/decisions/0026-one-search-engine.md). None
   * for a keyword without words.
   */
  matchingIds(keyword: string): Int32Array {
    this.prepareScratch();
    const words = queryWordsOf(keyword);
    if (words.length === 0) return new Int32Array(0);
    const { list, count } = this.matchWords(words);
    const found = new Int32Array(count);
    for (let i = 0; i < count; i++) found[i] = this.ids[list[i]!]!;
    return found.sort();
  }

  search(query: IndexQuery): IndexAnswer {
    this.prepareScratch();
    const words = queryWordsOf(query.keyword);
    const typeAllowed = this.types.allowed(query.typeIds);
    const brandAllowed = this.brands.allowed(query.brandIds);
    const typeTally = new Int32Array(this.types.ids.length);
    const brandTally = new Int32Array(this.brands.ids.length);
    const ranked = words.length > 0 && query.sort === 'relevance';
    const { typeSlots, brandSlots, stamps, scores, keys, removed } = this;
    const shownStamp = ++this.stamp;
    let total = 0;
    // Counts each facet with the other kind's filter only (docs/rules.md#catalogue-and-search), and marks what is
    // shown; for a ranked query, also each shown document's sort key.
    const countAndMark = (doc: number, scoreSteps: number): void => {
      const typeSlot = typeSlots[doc]!;
      const brandSlot = brandSlots[doc]!;
      const typeShown = typeAllowed === undefined || typeAllowed[typeSlot] === 1;
      const brandShown = brandAllowed === undefined || brandAllowed[brandSlot] === 1;
      if (brandShown) typeTally[typeSlot]!++;
      if (typeShown) brandTally[brandSlot]!++;
      if (typeShown && brandShown) {
        if (ranked)
          keys[total] =
            (MAX_SCORE_KEY - Math.min(Math.round(scores[doc]! * scoreSteps), MAX_SCORE_KEY)) * DOC_BITS + doc;
        stamps[doc] = shownStamp;
        total++;
      }
    };
    if (words.length > 0) {
      const { list, count } = this.matchWords(words);
      // Scores are ranked as steps of the best one, so scores that are all tiny (a word in nearly every
      // product has an idf near 0, as in FTS5) still order apart.
      let scoreSteps = 0;
      if (ranked) {
        let best = 0;
        for (let i = 0; i < count; i++) if (scores[list[i]!]! > best) best = scores[list[i]!]!;
        scoreSteps = best > 0 ? MAX_SCORE_KEY / best : 0;
      }
      for (let i = 0; i < count; i++) countAndMark(list[i]!, scoreSteps);
    } else {
      for (let doc = 0; doc < this.documentCount; doc++) if (removed[doc] !== 1) countAndMark(doc, 0);
    }
    const ids = ranked
      ? Array.from(
          smallestInOrder(keys, total, query.offset + query.limit).subarray(query.offset),
          (key) => this.ids[key % DOC_BITS]!,
        )
      : this.pageInOrder(query.sort, (doc) => stamps[doc] === shownStamp, query.offset, query.limit);
    return { ids, total, typeCounts: this.types.counts(typeTally), brandCounts: this.brands.counts(brandTally) };
  }
}
