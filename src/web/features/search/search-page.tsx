import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import { MIN_SEARCH_KEYWORD, MIN_URL_KEYWORD } from '../../../contract/catalog-rules.ts';
import { findType, useBrands, useProductTypes } from '../../lib/catalog-api.ts';
import { PageMeta } from '../../lib/page-meta.tsx';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { ProductGrid } from '../../ui/product-grid/product-grid.tsx';
import { useProductSearch } from './api/search-products.ts';
import { BrandFilter, CategoryFilter } from './category-filter.tsx';
import { compactTypeIds, expandTypeIds, parseIdList, toggleType } from './filter-rules.ts';
import styles from './search.module.css';

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
  const [params] = useSearchParams();
  const initialKeyword = (params.get('k') ?? '').trim().slice(0, 100);
  const [keywordInput, setKeywordInput] = useState(initialKeyword);
  const [keyword, setKeyword] = useState(initialKeyword.length >= MIN_SEARCH_KEYWORD ? initialKeyword : '');
  const [keywordHint, setKeywordHint] = useState(false);
  const [selectedTypes, setSelectedTypes] = useState(() => expandTypeIds(types, parseIdList(params.get('t'))));
  const [selectedBrands, setSelectedBrands] = useState(
    () => new Set(parseIdList(params.get('b')).filter((id) => brands.some((brand) => brand.id === id))),
  );
  const typeIds = useMemo(() => compactTypeIds(types, selectedTypes), [types, selectedTypes]);
  const brandIds = useMemo(() => [...selectedBrands].sort((a, b) => a - b), [selectedBrands]);
  const search = useProductSearch({ keyword, typeIds, brandIds });
  const mobile = useMediaQuery('(max-width: 900px)');
  const dialog = useRef<HTMLDialogElement>(null);

  // The address follows the filters without a navigation; a keyword goes in only above 2 characters.
  useEffect(() => {
    const query = new URLSearchParams();
    if (keyword.length >= MIN_URL_KEYWORD) query.set('k', keyword);
    if (typeIds.length > 0) query.set('t', typeIds.join(','));
    if (brandIds.length > 0) query.set('b', brandIds.join(','));
    const text = query.toString().replaceAll('%2C', ',');
    window.history.replaceState(window.history.state, '', `/search${text ? `?${text}` : ''}`);
  }, [keyword, typeIds, brandIds]);

  function afterFilterChange() {
    // docs/rules.md#catalogue-and-search: the filter modal closes after each search.
    dialog.current?.close();
  }

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

  const filters = (
    <>
      <CategoryFilter types={types} selected={selectedTypes} onToggle={toggleTypeId} />
      <BrandFilter brands={brands} selected={selectedBrands} onToggle={toggleBrandId} />
    </>
  );
  const pages = search.data?.pages ?? [];
  const results = pages.flatMap((page) => page.results);
  const total = pages[0]?.totalResults;
  const chips = [
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

  return (
    <div className={styles.layout}>
      {!mobile && (
        <aside className={styles.sidebar} aria-label="Filters">
          {filters}
          <SidebarAdvert />
        </aside>
      )}
      <div className={styles.results}>
        <form role="search" className={styles.searchForm} onSubmit={submitKeyword} aria-label="Products">
          <label htmlFor="search-keyword" className="visually-hidden">
            Search products
          </label>
          <input
            id="search-keyword"
            className="input"
            type="search"
            value={keywordInput}
            maxLength={100}
            placeholder="Search dhols, tablas, harmoniums…"
            aria-describedby={keywordHint ? 'search-keyword-hint' : undefined}
            onChange={(event) => setKeywordInput(event.target.value)}
          />
          <button type="submit" className="button">
            Search
          </button>
        </form>
        {keywordHint && (
          <p id="search-keyword-hint" className="field-error">
            Please type at least {MIN_SEARCH_KEYWORD} characters to search.
          </p>
        )}

        {mobile && (
          <>
            <button type="button" className="button button-secondary" onClick={() => dialog.current?.showModal()}>
              Filters{chips.length > 0 ? ` (${chips.length})` : ''}
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

        {chips.length > 0 && (
          <section className={styles.chips} aria-labelledby="selected-filters">
            <h2 id="selected-filters">Selected Filters</h2>
            <ul>
              {chips.map((chip) => (
                <li key={chip.key}>
                  <button type="button" className={styles.chip} onClick={chip.remove}>
                    {chip.label}
                    <span aria-hidden="true"> ×</span>
                    <span className="visually-hidden"> (remove filter)</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}

        <h2 className={styles.found} aria-live="polite">
          {total === undefined ? '' : `${total} PRODUCTS FOUND`}
        </h2>
        {search.isError && <p role="alert">The search is not available just now. Please try again.</p>}
        {total === 0 && <p>No products match. Try fewer filters or another word.</p>}
        <ProductGrid products={results} label="Search results" />
        {search.hasNextPage && (
          <div className={styles.more}>
            <button
              type="button"
              className="button"
              onClick={() => void search.fetchNextPage()}
              disabled={search.isFetchingNextPage}
            >
              {search.isFetchingNextPage ? 'Loading…' : 'LOAD MORE'}
            </button>
          </div>
        )}
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
