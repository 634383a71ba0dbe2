/** Where a page of a list answered by the server stands: its number, its size, and how many in all. */
export interface ListPage {
  page: number;
  pageSize: number;
  total: number;
}

export interface PagerProps {
  label: string;
  list: ListPage;
  onPage: (page: number) => void;
}

/** Previous and next for a paged list, with where the list stands. */
export function Pager({ label, list, onPage }: PagerProps) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const first = list.total === 0 ? 0 : (list.page - 1) * list.pageSize + 1;
  const last = Math.min(list.total, list.page * list.pageSize);
  return (
    <nav className="adm-pager" aria-label={label}>
      <button
        type="button"
        className="button button-secondary adm-small"
        disabled={list.page <= 1}
        onClick={() => onPage(list.page - 1)}
      >
        Previous page
      </button>
      <span aria-live="polite">
        {first}–{last} of {list.total} (page {list.page} of {pages})
      </span>
      <button
        type="button"
        className="button button-secondary adm-small"
        disabled={list.page >= pages}
        onClick={() => onPage(list.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}
