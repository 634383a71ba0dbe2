import type { Product } from '../../../contract/catalog.ts';
import { ProductCard } from '../product-card/product-card.tsx';
import styles from './product-grid.module.css';

/**
 * Cards in a grid. `eagerCount` first cards load their pictures at once: where the grid opens the
 * page, the largest paint is one of them, and a lazy picture waits for layout before it is fetched.
 */
export function ProductGrid({
  products,
  label,
  eagerCount = 0,
}: {
  products: Product[];
  label?: string;
  eagerCount?: number;
}) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
