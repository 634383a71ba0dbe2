import type { FormEvent } from 'react';
import { MIN_SEARCH_KEYWORD } from '../../../contract/catalog-rules.ts';
import styles from './search.module.css';

/**
 * The keyword box, and the hint under it when the keyword is too short to search. Without
 * JavaScript (a page drawn on the server, docs/decisions/0021-server-rendering.md) it is a plain
 * form asking for /search with the keyword as k and the other filters of the address, `keep`, as
 * they are; with it, the app searches in place.
 */
export function KeywordForm(props: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  hint: boolean;
  keep: Record<string, string>;
}) {
  return (
    <>
      <form
        role="search"
        className={styles.searchForm}
        onSubmit={props.onSubmit}
        aria-label="Products"
        action="/search"
        method="get"
      >
        {Object.entries(props.keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor="search-keyword" className="visually-hidden">
          Search products
        </label>
        <input
          id="search-keyword"
          name="k"
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
