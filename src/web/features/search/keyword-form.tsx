import type { FormEvent } from 'react';
import { MIN_SEARCH_KEYWORD } from '../../../contract/catalog-rules.ts';
import styles from './search.module.css';

/** The keyword box, and the hint under it when the keyword is too short to search. */
export function KeywordForm(props: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  hint: boolean;
}) {
  return (
    <>
      <form role="search" className={styles.searchForm} onSubmit={props.onSubmit} aria-label="Products">
        <label htmlFor="search-keyword" className="visually-hidden">
          Search products
        </label>
        <input
          id="search-keyword"
          className="input"
          type="search"
          value={props.value}
          maxLength={100}
          placeholder="Search dhols, tablas, harmoniums…"
          aria-describedby={props.hint ? 'search-keyword-hint' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {props.hint && (
        <p id="search-keyword-hint" className="field-error">
          Please type at least {MIN_SEARCH_KEYWORD} characters to search.
        </p>
      )}
    </>
  );
}
