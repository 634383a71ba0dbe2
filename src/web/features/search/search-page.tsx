import { useMemo, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import { searchSorts, type SearchSort } from '../../../contract/catalog-rules.ts';
import { searchPageTitle } from '../../../contract/search-filters.ts';
import { useBrands, useProductTypes } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { useProductSearch } from './api/search-products.ts';
import { BrandFilter, CategoryFilter, type FacetCounts } from './category-filter.tsx';
import { FilterChips } from './filter-chips.tsx';
import { KeywordForm } from './keyword-form.tsx';
import styles from './search.module.css';
import { SearchResults } from './search-results.tsx';
import { useSearchFilters } from './use-search-filters.ts';

/**
 * Product search (docs/rules.md#catalogue-and-search). The brand and type lists load first, then the
 * search runs. Each navigation to /search starts afresh from its URL; changing a filter rewrites
 * the URL in place and searches again.
 */
export default function SearchPage() {
  const location = useLocation();
  const types = useProductTypes();
  const brands = useBrands();
  return (
    <div className="container page">
      <h1 className="page-title">Search for products</h1>
      {types.data && brands.data ? (
        <SearchView key={location.key} types={types.data} brands={brands.data} />
      ) : (
        <>
          <PageMeta
            title={searchPageTitle(new URLSearchParams(location.search).get('k') ?? '')}
            canonicalPath="/search"
          />
          <p role="status">Loading…</p>
        </>
      )}
    </div>
  );
}

function SearchView({ types, brands }: { types: ProductType[]; brands: Brand[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // docs/rules.md#catalogue-and-search: the filter modal closes after each search.
  const filter = useSearchFilters(types, brands, () => dialog.current?.close());
  const search = useProductSearch(filter.filters);
  const facets = search.data?.pages[0]?.facets;
  const typeCounts: FacetCounts = useMemo(() => facets && new Map(facets.types.map((f) => [f.id, f.count])), [facets]);
  const brandCounts: FacetCounts = useMemo(
    () => facets && new Map(facets.brands.map((f) => [f.id, f.count])),
    [facets],
  );

  const filters = (
    <>
      <CategoryFilter
        types={types}
        selected={filter.selectedTypes}
        onToggle={filter.toggleTypeId}
        counts={typeCounts}
      />
      <BrandFilter
        brands={brands}
        selected={filter.selectedBrands}
        onToggle={filter.toggleBrandId}
        counts={brandCounts}
      />
    </>
  );

  return (
    <div className={styles.layout}>
      {/* Titled by the keyword searched for, as the address holds it (searchPageTitle). */}
      <PageMeta title={searchPageTitle(filter.filters.keyword)} canonicalPath="/search" />
      {/* The sidebar on a wide screen, the Filters button and its dialog on a narrow one: both are in
          the page and the stylesheet shows one, so the page the server draws is laid out right
          before any script runs, whatever the screen (docs/decisions/0021-server-rendering.md). */}
      <aside className={styles.sidebar} aria-label="Filters">
        <div className={styles.sidebarFilters}>{filters}</div>
        <SidebarAdvert />
      </aside>
      <div className={styles.results}>
        <KeywordForm
          value={filter.keywordInput}
          onChange={filter.setKeywordInput}
          onSubmit={filter.submitKeyword}
          hint={filter.keywordHint}
          keep={{
            ...(filter.filters.typeIds.length > 0 ? { t: filter.filters.typeIds.join(',') } : {}),
            ...(filter.filters.brandIds.length > 0 ? { b: filter.filters.brandIds.join(',') } : {}),
            ...(filter.sort !== 'relevance' ? { s: filter.sort } : {}),
          }}
        />

        <button
          type="button"
          className={`button button-secondary ${styles.filtersButton}`}
          onClick={() => dialog.current?.showModal()}
        >
          Filters{filter.chips.length > 0 ? ` (${filter.chips.length})` : ''}
        </button>
        <dialog ref={dialog} className={styles.filterDialog} aria-label="Filters">
          <div className={styles.dialogHead}>
            <h2>Filters</h2>
            <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
          {filters}
        </dialog>

        <FilterChips chips={filter.chips} />
        <SortControl value={filter.sort} onChange={filter.setSort} />
        <SearchResults search={search} />
      </div>
    </div>
  );
}

const sortLabels: Record<SearchSort, string> = {
  relevance: 'Best match',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  newest: 'Newest',
};

/** The order of the results (docs/rules.md#catalogue-and-search), kept in the address as s. */
function SortControl({ value, onChange }: { value: SearchSort; onChange: (sort: SearchSort) => void }) {
  return (
    <label className={styles.sort}>
      Sort by
      <select
        value={value}
        onChange={(event) => onChange(searchSorts.find((sort) => sort === event.target.value) ?? 'relevance')}
      >
        {Object.entries(sortLabels).map(([sort, label]) => (
          <option key={sort} value={sort}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

function SidebarAdvert() {
  return (
    <Link to="/search?t=1001" className={styles.advert}>
      <strong>String instruments</strong>
      <span>Sitars, tanpuras and santoor, set up by hand before dispatch.</span>
    </Link>
  );
}
