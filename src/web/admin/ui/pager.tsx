/** Previous and next for a paged list, with where the list stands. */
export function Pager(props: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  const first = props.total === 0 ? 0 : (props.page - 1) * props.pageSize + 1;
  const last = Math.min(props.total, props.page * props.pageSize);
  return (
    <nav className="adm-pager" aria-label={props.label}>
      <button
        type="button"
        className="button button-secondary adm-small"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        Previous page
      </button>
      <span aria-live="polite">
        {first}–{last} of {props.total} (page {props.page} of {pages})
      </span>
      <button
        type="button"
        className="button button-secondary adm-small"
        disabled={props.page >= pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}
