/** The product type tree's walks (docs/rules.md#catalogue-and-search), over the whole table's rows. */

export interface TypeRow {
  id: number;
  name: string;
  parent_id: number;
}

/** The given types with every descendant: filtering by a parent includes its children. Unknown ids are left out. */
export function withDescendants(typeIds: readonly number[], types: readonly TypeRow[]): number[] {
  const known = new Set(types.map((type) => type.id));
  const result = new Set<number>();
  const pending = typeIds.filter((id) => known.has(id));
  while (pending.length > 0) {
    const id = pending.pop() as number;
    if (result.has(id)) continue;
    result.add(id);
    for (const type of types) if (type.parent_id === id) pending.push(type.id);
  }
  return [...result];
}

/** A type's name and its ancestors' names, nearest first. */
export function typeChainNames(typeId: number, types: readonly TypeRow[]): string[] {
  const byId = new Map(types.map((type) => [type.id, type]));
  const names: string[] = [];
  const seen = new Set<number>();
  for (let type = byId.get(typeId); type && !seen.has(type.id); type = byId.get(type.parent_id)) {
    seen.add(type.id);
    names.push(type.name);
  }
  return names;
}
