import type { useProductSearch } from './api/search-products.ts';
import { ProductGrid } from '../../ui/product-grid/product-grid.tsx';
import styles from './search.module.css';

/** How many were found, the products so far, and LOAD MORE while there are more. */
export function SearchResults({ search }: { search: ReturnType<typeof useProductSearch> }) {
  const pages = search.data?.pages ?? [];
  const results = pages.flatMap((page) => page.results);
  const total = pages[0]?.totalResults;
  return (
    <>
      <h2 className={styles.found} aria-live="polite">
        {total === undefined ? '' : `${total} PRODUCTS FOUND`}
      </h2>
      {search.isError && <p role="alert">The search is not available just now. Please try again.</p>}
      {total === 0 && <p>No products match. Try fewer filters or another word.</p>}
      <ProductGrid products={results} label="Search results" eagerCount={4} />
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
    </>
  );
}
