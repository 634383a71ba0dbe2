import styles from './search.module.css';
import type { FilterChip } from './use-search-filters.ts';

/** Selected Filters: one button a filter, which removes it. */
export function FilterChips({ chips }: { chips: FilterChip[] }) {
  if (chips.length === 0) return null;
  return (
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
  );
}
