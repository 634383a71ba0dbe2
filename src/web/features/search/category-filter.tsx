import { useId, useState } from 'react';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import styles from './search.module.css';

/**
 * How many products match the search per type or brand id (docs/rules.md#catalogue-and-search); undefined until the
 * search's first page has them. An id left out has none: it is shown dimmed, not hidden.
 */
export type FacetCounts = ReadonlyMap<number, number> | undefined;

/** A filter's name with its count beside it, dimmed when nothing would match. */
function FilterName({ name, id, counts }: { name: string; id: number; counts: FacetCounts }) {
  if (!counts) return <>{name}</>;
  const count = counts.get(id) ?? 0;
  return (
    <span className={count === 0 ? styles.dimmed : undefined}>
      {name} <span className={styles.count}>({count})</span>
    </span>
  );
}

export function CategoryFilter(props: {
  types: ProductType[];
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  counts: FacetCounts;
}) {
  return (
    <fieldset className={styles.filter}>
      <legend>Categories</legend>
      <ul className={styles.filterList}>
        {props.types.map((type) => (
          <ParentCategory
            key={type.id}
            type={type}
            selected={props.selected}
            onToggle={props.onToggle}
            counts={props.counts}
          />
        ))}
      </ul>
    </fieldset>
  );
}

function ParentCategory(props: {
  type: ProductType;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  counts: FacetCounts;
}) {
  const { type, selected, onToggle, counts } = props;
  const hasChildren = type.childTypes.length > 0;
  const [expanded, setExpanded] = useState(() => type.childTypes.some((child) => selected.has(child.id)));
  const listId = useId();
  return (
    <li>
      <div className={styles.filterRow}>
        <label className={styles.check}>
          <input type="checkbox" checked={selected.has(type.id)} onChange={() => onToggle(type.id)} />
          <FilterName name={type.name} id={type.id} counts={counts} />
        </label>
        {hasChildren && (
          <button
            type="button"
            className={styles.expand}
            aria-expanded={expanded}
            aria-controls={listId}
            onClick={() => setExpanded((value) => !value)}
          >
            <span aria-hidden="true">{expanded ? '−' : '+'}</span>
            <span className="visually-hidden">
              {expanded ? 'Hide' : 'Show'} {type.name} types
            </span>
          </button>
        )}
      </div>
      {hasChildren && (
        <ul id={listId} className={styles.childList} hidden={!expanded}>
          {type.childTypes.map((child) => (
            <li key={child.id}>
              <label className={styles.check}>
                <input type="checkbox" checked={selected.has(child.id)} onChange={() => onToggle(child.id)} />
                <FilterName name={child.name} id={child.id} counts={counts} />
              </label>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function BrandFilter(props: {
  brands: Brand[];
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  counts: FacetCounts;
}) {
  return (
    <fieldset className={styles.filter}>
      <legend>Brands</legend>
      <ul className={styles.filterList}>
        {props.brands.map((brand) => (
          <li key={brand.id}>
            <label className={styles.check}>
              <input type="checkbox" checked={props.selected.has(brand.id)} onChange={() => props.onToggle(brand.id)} />
              <FilterName name={brand.name} id={brand.id} counts={props.counts} />
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
