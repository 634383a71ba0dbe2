import { useId, useState } from 'react';
import type { Brand, ProductType } from '../../../contract/catalog.ts';
import styles from './search.module.css';

export function CategoryFilter(props: {
  types: ProductType[];
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
}) {
  return (
    <fieldset className={styles.filter}>
      <legend>Categories</legend>
      <ul className={styles.filterList}>
        {props.types.map((type) => (
          <ParentCategory key={type.id} type={type} selected={props.selected} onToggle={props.onToggle} />
        ))}
      </ul>
    </fieldset>
  );
}

function ParentCategory(props: { type: ProductType; selected: ReadonlySet<number>; onToggle: (id: number) => void }) {
  const { type, selected, onToggle } = props;
  const hasChildren = type.childTypes.length > 0;
  const [expanded, setExpanded] = useState(() => type.childTypes.some((child) => selected.has(child.id)));
  const listId = useId();
  return (
    <li>
      <div className={styles.filterRow}>
        <label className={styles.check}>
          <input type="checkbox" checked={selected.has(type.id)} onChange={() => onToggle(type.id)} />
          {type.name}
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
                {child.name}
              </label>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function BrandFilter(props: { brands: Brand[]; selected: ReadonlySet<number>; onToggle: (id: number) => void }) {
  return (
    <fieldset className={styles.filter}>
      <legend>Brands</legend>
      <ul className={styles.filterList}>
        {props.brands.map((brand) => (
          <li key={brand.id}>
            <label className={styles.check}>
              <input type="checkbox" checked={props.selected.has(brand.id)} onChange={() => props.onToggle(brand.id)} />
              {brand.name}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
