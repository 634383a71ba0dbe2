import type { ProductType } from '../../../contract/catalog.ts';

/**
 * The category filter's selection rules (docs/rules.md#catalogue-and-search). The selection holds every ticked
 * type, parents and children alike:
 * - ticking a parent ticks all its children, unticking it unticks them;
 * - unticking a child unticks its parent;
 * - ticking the last unticked child ticks the parent.
 */

function parentOf(types: ProductType[], id: number): ProductType | undefined {
  return types.find((type) => type.childTypes.some((child) => child.id === id));
}

export function toggleType(types: ProductType[], selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  const parent = types.find((type) => type.id === id);
  if (parent) {
    const on = !selected.has(id);
    for (const typeId of [parent.id, ...parent.childTypes.map((child) => child.id)]) {
      if (on) next.add(typeId);
      else next.delete(typeId);
    }
    return next;
  }
  const owner = parentOf(types, id);
  if (selected.has(id)) {
    next.delete(id);
    if (owner) next.delete(owner.id);
  } else {
    next.add(id);
    if (owner && owner.childTypes.every((child) => next.has(child.id))) next.add(owner.id);
  }
  return next;
}

/** The fewest ids that say the same: a ticked parent stands for its children. */
export function compactTypeIds(types: ProductType[], selected: ReadonlySet<number>): number[] {
  const ids: number[] = [];
  for (const type of types) {
    if (selected.has(type.id)) ids.push(type.id);
    else for (const child of type.childTypes) if (selected.has(child.id)) ids.push(child.id);
  }
  return ids;
}

/** The selection for ids from a URL or link: a parent brings its children. */
export function expandTypeIds(types: ProductType[], ids: number[]): Set<number> {
  let selected = new Set<number>();
  for (const id of ids) {
    const known = types.some((type) => type.id === id || type.childTypes.some((child) => child.id === id));
    if (known && !selected.has(id)) selected = toggleType(types, selected, id);
  }
  return selected;
}

/** "1,2,3" from a query parameter, keeping positive whole numbers only. */
export function parseIdList(value: string | null): number[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((part) => Number(part.trim()))
        .filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647),
    ),
  ].slice(0, 50);
}
