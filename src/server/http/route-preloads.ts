import { existsSync, readFileSync } from 'node:fs';
import { pageModuleOf } from '../../contract/routes.ts';

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

  // Every path has a page module: the 404 page's where it is no page (src/contract/routes.ts).
  return (path: string) => {
    const module = pageModuleOf(path);
    let links = cache.get(module);
    if (links === undefined) {
      links = linksFor(module);
      cache.set(module, links);
    }
    return links;
  };
}
