import { dirname, relative, resolve, sep } from 'node:path';
import type { Rule } from 'eslint';

/**
 * The import boundaries of docs/architecture.md and docs/architecture.md#back-office as one rule over every file, with every zone
 * in one option list. (ESLint's flat config gives a file only the last `no-restricted-imports` that
 * matches it, so boundaries written as several of those replaced each other: a storefront feature
 * lost "web never imports server" to its per-feature rule.) Paths are resolved, so `../features/x`
 * means the same folder however deep the importing file sits, and `import()` is checked too: the
 * routers load every page that way.
 */
export interface Zone {
  /** Folders (from the project root) whose files this zone restricts. */
  target: string[];
  /** Folders they may not import. */
  from: string[];
  /** Folders inside `target` the zone leaves alone. */
  except?: string[];
  message: string;
}

/** A file in `<parent>/<name>/` may not import from `<parent>/<other>/`: features do not import each other. */
export interface SiblingZone {
  siblingsUnder: string;
  message: string;
}

export type BoundaryOptions = { root: string; zones: Array<Zone | SiblingZone> };

const toPosix = (path: string) => path.split(sep).join('/');
const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The first zone `file` (relative to the root) breaks by importing `target`, if any. */
export function brokenZone(file: string, target: string, zones: BoundaryOptions['zones']): string | undefined {
  for (const zone of zones) {
    if ('siblingsUnder' in zone) {
      const own = file.startsWith(`${zone.siblingsUnder}/`) ? file.slice(zone.siblingsUnder.length + 1).split('/') : [];
      const theirs = target.startsWith(`${zone.siblingsUnder}/`)
        ? target.slice(zone.siblingsUnder.length + 1).split('/')
        : [];
      // Only files inside a feature folder count (not a file lying directly in the parent).
      if (own.length > 1 && theirs.length > 1 && own[0] !== theirs[0]) return zone.message;
      continue;
    }
    if (!zone.target.some((folder) => inside(file, folder))) continue;
    if (zone.except?.some((folder) => inside(file, folder))) continue;
    if (zone.from.some((folder) => inside(target, folder))) return zone.message;
  }
  return undefined;
}

export const importBoundaries: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports inside the architecture’s boundaries (docs/architecture.md)' },
    schema: [{ type: 'object', properties: { root: { type: 'string' }, zones: { type: 'array' } } }],
  },
  create(context) {
    const { root, zones } = context.options[0] as BoundaryOptions;
    const file = toPosix(relative(root, context.filename));
    function check(node: Rule.Node, source: unknown) {
      // Packages are not folders of ours; only relative paths can cross a boundary.
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = toPosix(relative(root, resolve(dirname(context.filename), source.split('?')[0] ?? source)));
      const message = brokenZone(file, target, zones);
      if (message) context.report({ node, message: `'${source}': ${message}` });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
    };
  },
};
