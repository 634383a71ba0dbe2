import { existsSync, readFileSync } from 'node:fs';

/**
 * Each page's code is a lazy chunk the browser would only discover after the app's entry has run.
 * From Vite's build manifest, the server lists a page's chunks (with their imports and styles) as
 * preload links in the HTML, so they download alongside the entry.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

/** Which page module serves which path (mirrors src/web/app/router.tsx). */
const pageModules: Array<[RegExp, string]> = [
  [/^\/home$/, 'features/home/home-page.tsx'],
  [/^\/search$/, 'features/search/search-page.tsx'],
  [/^\/(?:products\/details|products|product)\/[^/]+$/, 'features/product/product-page.tsx'],
  [/^\/(?:shoppingcart|shopping-cart)$/, 'features/cart/cart-page.tsx'],
  [/^\/checkout$/, 'features/checkout/sign-in-page.tsx'],
  [/^\/checkout-details$/, 'features/checkout/details-page.tsx'],
  [/^\/checkout-delivery$/, 'features/checkout/delivery-page.tsx'],
  [/^\/checkout-review$/, 'features/checkout/review-page.tsx'],
  [/^\/checkout-confirm$/, 'features/checkout/confirm-page.tsx'],
  [/^\/order-recovery\/[^/]+$/, 'features/checkout/recovery-page.tsx'],
  [/^\/payment-success$/, 'features/payment-result/payment-success-page.tsx'],
  [/^\/payment-declined$/, 'features/payment-result/payment-declined-page.tsx'],
  [/^\/login$/, 'features/account/login-page.tsx'],
  [/^\/account-home$/, 'features/account/account-page.tsx'],
  [/^\/register$/, 'features/account/register-page.tsx'],
  [/^\/verify-account\/[^/]+$/, 'features/account/verify-account-page.tsx'],
  [/^\/forgotpassword$/, 'features/account/forgot-password-page.tsx'],
  [/^\/reset-password\/[^/]+$/, 'features/account/reset-password-page.tsx'],
  [/^\/about$/, 'features/about/about-page.tsx'],
  [/^\/contact$/, 'features/contact/contact-page.tsx'],
  [/^\/termsandconditions$/, 'features/terms/terms-page.tsx'],
  // Where every path that is no page is drawn (NOT_FOUND_LOCATION in src/contract/routes.ts).
  [/^\/page-not-found$/, 'features/not-found/not-found-page.tsx'],
];

export function loadRoutePreloads(manifestPath: string): (path: string) => string {
  if (!existsSync(manifestPath)) return () => '';
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entryImports = new Set<string>();
  for (const chunk of Object.values(manifest)) {
    if (!chunk.isEntry) continue;
    // With two entries (the shop, the back office) the shared code, and the styles it imports,
    // sit in chunks of their own: their styles are loaded by the page already too.
    const imported = (chunk.imports ?? []).map((i) => manifest[i]);
    for (const name of [
      chunk.file,
      ...(chunk.css ?? []),
      ...imported.flatMap((child) => (child ? [child.file, ...(child.css ?? [])] : [])),
    ]) {
      entryImports.add(name);
    }
  }
  const cache = new Map<string, string>();

  function linksFor(key: string): string {
    const files = new Set<string>();
    const styles = new Set<string>();
    const visit = (name: string) => {
      const chunk = manifest[name];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const child of chunk.imports ?? []) visit(child);
    };
    visit(key);
    return [
      ...[...files]
        .filter((file) => !entryImports.has(file))
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
      ...[...styles]
        .filter((file) => !entryImports.has(file))
        .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ].join('');
  }

  return (path: string) => {
    const module = pageModules.find(([pattern]) => pattern.test(path))?.[1];
    if (!module) return '';
    let links = cache.get(module);
    if (links === undefined) {
      links = linksFor(module);
      cache.set(module, links);
    }
    return links;
  };
}
