import { pageTitle, siteOrigin } from './shop.ts';

/** The shop's generic description, from index.html, for pages without their own. */
let defaultDescription = '';
export function setDefaultDescription(text: string): void {
  defaultDescription = text;
}

/**
 * A page's head: title (ending with the shop's name), description (its own, else the shop's: one
 * either way) and canonical link. React 19 hoists these into <head>.
 */
export function PageMeta(props: { title: string; description?: string; keywords?: string; canonicalPath?: string }) {
  const canonical = props.canonicalPath === undefined ? undefined : `${siteOrigin()}${props.canonicalPath}`;
  return (
    <>
      <title>{pageTitle(props.title)}</title>
      {(props.description || defaultDescription) && (
        <meta name="description" content={props.description || defaultDescription} />
      )}
      {props.keywords && <meta name="keywords" content={props.keywords} />}
      {canonical && <link rel="canonical" href={canonical} />}
    </>
  );
}
