import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import { MIN_SEARCH_KEYWORD, MIN_URL_KEYWORD, type SearchSort } from '../../../contract/catalog-rules.ts';
import { compactTypeIds, readSearchAddress, toggleType, type SearchFilters } from '../../../contract/search-filters.ts';
import { findType } from '../../lib/catalog-api.ts';

export interface FilterChip {
  key: string;
  label: string;
  remove: () => void;
}

/**
 * The search's keyword, types and brands (docs/rules.md#catalogue-and-search): read from the URL
 * once, then kept here with the URL following them. `afterFilterChange` runs after each change.
 */
export function useSearchFilters(types: ProductType[], brands: Brand[], afterFilterChange: () => void) {
  const [params] = useSearchParams();
  // Read as the server read it when it wrote this search's first page into the HTML.
  const [address] = useState(() => readSearchAddress(params, types, brands));
  const [keywordInput, setKeywordInput] = useState(address.keywordInput);
  const [keyword, setKeyword] = useState(address.filters.keyword);
  const [keywordHint, setKeywordHint] = useState(false);
  const [selectedTypes, setSelectedTypes] = useState(address.selectedTypes);
  const [selectedBrands, setSelectedBrands] = useState(() => new Set(address.filters.brandIds));
  // The order is in the address as s, like the filters; an unknown one is relevance.
  const [sort, setSortState] = useState<SearchSort>(address.filters.sort);
  const typeIds = useMemo(() => compactTypeIds(types, selectedTypes), [types, selectedTypes]);
  const brandIds = useMemo(() => [...selectedBrands].sort((a, b) => a - b), [selectedBrands]);

  // The address follows the filters without a navigation; a keyword goes in only above 2 characters.
  useEffect(() => {
    const query = new URLSearchParams();
    if (keyword.length >= MIN_URL_KEYWORD) query.set('k', keyword);
    if (typeIds.length > 0) query.set('t', typeIds.join(','));
    if (brandIds.length > 0) query.set('b', brandIds.join(','));
    if (sort !== 'relevance') query.set('s', sort);
    const text = query.toString().replaceAll('%2C', ',');
    window.history.replaceState(window.history.state, '', `/search${text ? `?${text}` : ''}`);
  }, [keyword, typeIds, brandIds, sort]);

  const setSort = (next: SearchSort) => {
    setSortState(next);
    afterFilterChange();
  };

  function submitKeyword(event: FormEvent) {
    event.preventDefault();
    const text = keywordInput.trim();
    if (text.length > 0 && text.length < MIN_SEARCH_KEYWORD) {
      setKeywordHint(true);
      return;
    }
    setKeywordHint(false);
    setKeyword(text);
    afterFilterChange();
  }

  const toggleTypeId = (id: number) => {
    setSelectedTypes((current) => toggleType(types, current, id));
    afterFilterChange();
  };
  const toggleBrandId = (id: number) => {
    setSelectedBrands((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    afterFilterChange();
  };

  const chips: FilterChip[] = [
    ...(keyword ? [{ key: 'k', label: `“${keyword}”`, remove: () => (setKeyword(''), setKeywordInput('')) }] : []),
    ...typeIds.map((id) => ({
      key: `t${id}`,
      label: findType(types, id)?.name ?? String(id),
      remove: () => toggleTypeId(id),
    })),
    ...brandIds.map((id) => ({
      key: `b${id}`,
      label: brands.find((brand) => brand.id === id)?.name ?? String(id),
      remove: () => toggleBrandId(id),
    })),
  ];

  const filters: SearchFilters = { keyword, typeIds, brandIds, sort };
  return {
    filters,
    keywordInput,
    setKeywordInput,
    keywordHint,
    submitKeyword,
    selectedTypes,
    selectedBrands,
    toggleTypeId,
    toggleBrandId,
    sort,
    setSort,
    chips,
  };
}
