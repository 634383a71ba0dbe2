import { pageTitle } from './shop.ts';

/**
 * A page's head: title (ending with the shop's name), description and canonical link.
 * React 19 hoists these into <head>.
 */
export function PageMeta(props: { title: string; description?: string; keywords?: string; canonicalPath?: string }) {
  const canonical = props.canonicalPath === undefined ? undefined : `${window.location.origin}${props.canonicalPath}`;
  return (
    <>
      <title>{pageTitle(props.title)}</title>
      {props.description && <meta name="description" content={props.description} />}
      {props.keywords && <meta name="keywords" content={props.keywords} />}
      {canonical && <link rel="canonical" href={canonical} />}
    </>
  );
}
