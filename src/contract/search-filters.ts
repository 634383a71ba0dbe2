import type { Brand, ProductType, SearchRequest } from './catalog.ts';
import {
  DEFAULT_PAGE_SIZE,
  MAX_KEYWORD_LENGTH,
  MIN_SEARCH_KEYWORD,
  MIN_URL_KEYWORD,
  searchSorts,
  type SearchSort,
} from './catalog-rules.ts';

/**
 * The category filter's selection rules (docs/rules.md#catalogue-and-search). The selection holds every ticked
 * type, parents and children alike:
 * - ticking a parent ticks all its children, unticking it unticks them;
 * - unticking a child unticks its parent;
 * - ticking the last unticked child ticks the parent.
 */

function parentOf(types: ProductType[], id: number): ProductType | undefined {
  return types.find((type) => type.childTypes.some((child) => child.id === id));
}

export function toggleType(types: ProductType[], selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  const parent = types.find((type) => type.id === id);
  if (parent) {
    const on = !selected.has(id);
    for (const typeId of [parent.id, ...parent.childTypes.map((child) => child.id)]) {
      if (on) next.add(typeId);
      else next.delete(typeId);
    }
    return next;
  }
  const owner = parentOf(types, id);
  if (selected.has(id)) {
    next.delete(id);
    if (owner) next.delete(owner.id);
  } else {
    next.add(id);
    if (owner && owner.childTypes.every((child) => next.has(child.id))) next.add(owner.id);
  }
  return next;
}

/** The fewest ids that say the same: a ticked parent stands for its children. */
export function compactTypeIds(types: ProductType[], selected: ReadonlySet<number>): number[] {
  const ids: number[] = [];
  for (const type of types) {
    if (selected.has(type.id)) ids.push(type.id);
    else for (const child of type.childTypes) if (selected.has(child.id)) ids.push(child.id);
  }
  return ids;
}

/** The selection for ids from a URL or link: a parent brings its children. */
export function expandTypeIds(types: ProductType[], ids: number[]): Set<number> {
  let selected = new Set<number>();
  for (const id of ids) {
    const known = types.some((type) => type.id === id || type.childTypes.some((child) => child.id === id));
    if (known && !selected.has(id)) selected = toggleType(types, selected, id);
  }
  return selected;
}

/** "1,2,3" from a query parameter, keeping positive whole numbers only. */
export function parseIdList(value: string | null): number[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((part) => Number(part.trim()))
        .filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647),
    ),
  ].slice(0, 50);
}

/** A search's keyword, types, brands and order: what the search page asks for, and its cache key. */
export interface SearchFilters {
  keyword: string;
  typeIds: number[];
  brandIds: number[];
  sort: SearchSort;
}

/** One page of a search's results as POST /api/search is asked for it, by the search page and the server alike. */
export function searchRequestFor(filters: SearchFilters, pageNumber: number): SearchRequest {
  return {
    title: filters.keyword,
    typeId: filters.typeIds,
    brandId: filters.brandIds,
    pageSize: DEFAULT_PAGE_SIZE,
    pageNumber,
    sort: filters.sort,
  };
}

/** What a /search address asks for, read from its query once. */
export interface SearchAddress {
  /** The keyword as typed into the address (the box shows it even when too short to search). */
  keywordInput: string;
  /** Every ticked type, parents and children alike. */
  selectedTypes: Set<number>;
  filters: SearchFilters;
}

/**
 * A /search address read the same way by the browser's search page and by the server that writes
 * the first page of results into the HTML: k, t, b and s; unknown types and brands are dropped, a
 * keyword too short to search is none, an unknown order is relevance.
 */
export function readSearchAddress(params: URLSearchParams, types: ProductType[], brands: Brand[]): SearchAddress {
  const keywordInput = (params.get('k') ?? '').trim().slice(0, 100);
  const selectedTypes = expandTypeIds(types, parseIdList(params.get('t')));
  const brandIds = parseIdList(params.get('b'))
    .filter((id) => brands.some((brand) => brand.id === id))
    .sort((a, b) => a - b);
  return {
    keywordInput,
    selectedTypes,
    filters: {
      keyword: keywordInput.length >= MIN_SEARCH_KEYWORD ? keywordInput : '',
      typeIds: compactTypeIds(types, selectedTypes),
      brandIds,
      sort: searchSorts.find((known) => known === params.get('s')) ?? 'relevance',
    },
  };
}

/**
 * The search page's title (before the shop's name): the keyword its address holds, else the spec's
 * "Search for products". The server writes it into the page for link previews (page-head.ts) and
 * the app shows the same once it runs, from the keyword it searches for, which goes into the
 * address only above 2 characters (issue 32: the app said "Search for products" after the server
 * had said the keyword).
 */
export function searchPageTitle(keyword: string): string {
  const shown = keyword.trim().slice(0, MAX_KEYWORD_LENGTH);
  return shown.length >= MIN_URL_KEYWORD ? `Search results for “${shown}”` : 'Search for products';
}
