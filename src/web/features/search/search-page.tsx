import { useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import { useBrands, useProductTypes } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useProductSearch } from './api/search-products.ts';
import { BrandFilter, CategoryFilter } from './category-filter.tsx';
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
      <PageMeta title="Search for products" canonicalPath="/search" />
      <h1 className="page-title">Search for products</h1>
      {types.data && brands.data ? (
        <SearchView key={location.key} types={types.data} brands={brands.data} />
      ) : (
        <p role="status">Loading…</p>
      )}
    </div>
  );
}

function SearchView({ types, brands }: { types: ProductType[]; brands: Brand[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // docs/rules.md#catalogue-and-search: the filter modal closes after each search.
  const filter = useSearchFilters(types, brands, () => dialog.current?.close());
  const search = useProductSearch(filter.filters);
  const mobile = useMediaQuery('(max-width: 900px)');

  const filters = (
    <>
      <CategoryFilter types={types} selected={filter.selectedTypes} onToggle={filter.toggleTypeId} />
      <BrandFilter brands={brands} selected={filter.selectedBrands} onToggle={filter.toggleBrandId} />
    </>
  );

  return (
    <div className={styles.layout}>
      {!mobile && (
        <aside className={styles.sidebar} aria-label="Filters">
          {filters}
          <SidebarAdvert />
        </aside>
      )}
      <div className={styles.results}>
        <KeywordForm
          value={filter.keywordInput}
          onChange={filter.setKeywordInput}
          onSubmit={filter.submitKeyword}
          hint={filter.keywordHint}
        />

        {mobile && (
          <>
            <button type="button" className="button button-secondary" onClick={() => dialog.current?.showModal()}>
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
          </>
        )}

        <FilterChips chips={filter.chips} />
        <SearchResults search={search} />
      </div>
    </div>
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
