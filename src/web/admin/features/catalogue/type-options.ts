import type { ProductTypeView } from '../../../../contract/admin/catalogue.ts';
import { TOP_LEVEL_PARENT_ID } from '../../../../contract/catalog-rules.ts';

export interface TypeOption {
  type: ProductTypeView;
  depth: number;
  /** "Percussion › Dhols", for a select's option. */
  path: string;
}

/** The type tree depth first, each type after its parent and among its siblings in their order. */
export function typeOptions(types: readonly ProductTypeView[] | undefined): TypeOption[] {
  const list = [...(types ?? [])].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
  const options: TypeOption[] = [];
  const visit = (parentId: number, depth: number, path: string) => {
    for (const type of list.filter((t) => t.parentId === parentId)) {
      const own = path ? `${path} › ${type.name}` : type.name;
      options.push({ type, depth, path: own });
      if (depth < 20) visit(type.id, depth + 1, own);
    }
  };
  visit(TOP_LEVEL_PARENT_ID, 0, '');
  return options;
}
