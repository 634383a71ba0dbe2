import type { Product } from '../../../contract/catalog.ts';
import { ProductCard } from '../product-card/product-card.tsx';
import styles from './product-grid.module.css';

export function ProductGrid({ products, label }: { products: Product[]; label?: string }) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {products.map((product) => (
        <li key={product.id}>
          <ProductCard product={product} />
        </li>
      ))}
    </ul>
  );
}
