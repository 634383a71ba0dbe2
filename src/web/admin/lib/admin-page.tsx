import { useEffect, useRef, type ReactNode } from 'react';

let firstPage = true;

/**
 * A back-office page's title and heading. After moving from page to page in the app, focus goes to
 * the new page's heading, so a screen reader announces where the person is (the first page load is
 * left as the browser has it).
 */
export function AdminPage(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (firstPage) firstPage = false;
    else heading.current?.focus();
  }, [props.title]);
  return (
    <section className="adm-page" aria-labelledby="page-heading">
      <title>{`${props.title} | Back office`}</title>
      <div className="adm-page-head">
        <h1 id="page-heading" ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}
