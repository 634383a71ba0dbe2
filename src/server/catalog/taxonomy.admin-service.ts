import type { BrandInput, BrandView, ProductTypeInput, ProductTypeView } from '../../contract/admin/catalogue.ts';
import { TOP_LEVEL_PARENT_ID } from '../../contract/catalog-rules.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  countProducts,
  deleteBrand,
  deleteType,
  insertBrand,
  insertType,
  listBrands,
  listTypes,
  renameBrand,
  rewriteSearchTags,
  setOrder,
  typeRows,
  updateType,
} from './catalog.admin-repository.ts';
import {
  catalogueChanges,
  changes,
  conflict,
  moved,
  plural,
  type CatalogueChangeOptions,
  type Db,
  type Direction,
  type Tx,
} from './catalogue-changes.ts';
import { searchTagsOf } from './search-index.ts';
import { typeChainNames, withDescendants, type TypeRow } from './type-tree.ts';

/**
 * Product types and brands in the back office (docs/back-office.md#catalogue): the two named lists
 * the storefront shows in the owner's order, in menus, filters and on products. They are kept by
 * one workflow (create, rename or move, reorder, delete, each audited); a `Taxonomy` says what the
 * two differ in: types form a tree (a parent to check, siblings to order and name apart, children
 * that block a delete), brands are one list.
 */

interface Entry {
  id: number;
  name: string;
}

interface Taxonomy<Row extends Entry, Input extends { name: string }, View> {
  /** The audit's entity type, and its actions' prefix. */
  entity: 'product_type' | 'brand';
  table: 'product_types' | 'brands';
  /** As a message names one: "product type". */
  title: string;
  /** As a product has one: "type". */
  noun: string;
  rows(trx: Tx): Promise<Row[]>;
  views(db: Db): Promise<View[]>;
  productCount(trx: Tx, id: number): Promise<number>;
  /** The entries a name must differ from, and whose order it is kept in, for one placed as `input` (or `row`) is. */
  siblings(rows: Row[], placed: Input | Row): Row[];
  /** What the audit shows of one. */
  shape(entry: Input | Row): Record<string, unknown>;
  /** Refuses an input that cannot be placed where it says (moving: the entry that would move). */
  checkPlace(rows: Row[], input: Input, movingId?: number): void;
  insert(trx: Tx, input: Input): Promise<number>;
  remove(trx: Tx, id: number): Promise<void>;
  /** Writes a changed entry, and what search keeps of its products. */
  rewrite(trx: Tx, before: Row, input: Input): Promise<void>;
  /** Why it cannot be deleted besides its products, if anything. */
  deleteBlocker(rows: Row[], entry: Row): string | undefined;
}

type TypeEntry = TypeRow & { sort_order: number };

const productTypes: Taxonomy<TypeEntry, ProductTypeInput, ProductTypeView> = {
  entity: 'product_type',
  table: 'product_types',
  title: 'product type',
  noun: 'type',
  rows: (trx) => typeRows(trx),
  async views(db) {
    return (await listTypes(db)).map((row) => ({
      id: row.id,
      name: row.name,
      parentId: row.parent_id,
      sortOrder: row.sort_order,
      products: Number(row.products ?? 0),
    }));
  },
  productCount: (trx, id) => countProducts(trx, { typeId: id }),
  siblings(rows, placed) {
    const parentId = 'parentId' in placed ? placed.parentId : placed.parent_id;
    return rows.filter((row) => row.parent_id === parentId);
  },
  shape: (entry) => ({ name: entry.name, parentId: 'parentId' in entry ? entry.parentId : entry.parent_id }),
  checkPlace(types, input, movingId) {
    if (input.parentId === TOP_LEVEL_PARENT_ID) return;
    if (!types.some((type) => type.id === input.parentId)) {
      throw new BadRequestError('There is no such product type to put it in', 'parentId');
    }
    if (movingId !== undefined && withDescendants([movingId], types).includes(input.parentId)) {
      throw new BadRequestError('A type cannot go inside itself or one of the types inside it', 'parentId');
    }
  },
  insert: (trx, input) => insertType(trx, input),
  remove: (trx, id) => deleteType(trx, id),
  async rewrite(trx, before, input) {
    await updateType(trx, before.id, { ...input, moved: input.parentId !== before.parent_id });
    // The indexed search tags of its products (and its descendants'), after a rename or a move.
    const [types, brands] = await Promise.all([typeRows(trx), listBrands(trx)]);
    const brandNames = new Map(brands.map((brand) => [brand.id, brand.name]));
    await rewriteSearchTags(trx, { typeIds: withDescendants([before.id], types) }, (typeId, brandId) =>
      searchTagsOf('', typeChainNames(typeId, types), brandNames.get(brandId) ?? ''),
    );
  },
  deleteBlocker(types, type) {
    const children = types.filter((row) => row.parent_id === type.id).length;
    return children > 0
      ? `"${type.name}" has ${plural(children, 'type')} inside it. Move or delete them first.`
      : undefined;
  },
};

type BrandEntry = Awaited<ReturnType<typeof listBrands>>[number];

const brands: Taxonomy<BrandEntry, BrandInput, BrandView> = {
  entity: 'brand',
  table: 'brands',
  title: 'brand',
  noun: 'brand',
  rows: (trx) => listBrands(trx),
  async views(db) {
    return (await listBrands(db)).map((row) => ({
      id: row.id,
      name: row.name,
      sortOrder: row.sort_order,
      products: Number(row.products ?? 0),
    }));
  },
  productCount: (trx, id) => countProducts(trx, { brandId: id }),
  siblings: (rows) => rows,
  shape: (entry) => ({ name: entry.name }),
  checkPlace: () => undefined,
  insert: (trx, input) => insertBrand(trx, input.name),
  remove: (trx, id) => deleteBrand(trx, id),
  async rewrite(trx, before, input) {
    await renameBrand(trx, before.id, input.name);
    const types = await typeRows(trx);
    await rewriteSearchTags(trx, { brandId: before.id }, (typeId) =>
      searchTagsOf('', typeChainNames(typeId, types), input.name),
    );
  },
  deleteBlocker: () => undefined,
};

/** The workflow both lists are kept by. */
function taxonomyAdmin<Row extends Entry, Input extends { name: string }, View>(
  db: Db,
  options: CatalogueChangeOptions,
  kind: Taxonomy<Row, Input, View>,
) {
  const { change } = catalogueChanges(db, options);

  async function entryOrThrow(trx: Tx, id: number): Promise<{ rows: Row[]; entry: Row }> {
    const rows = await kind.rows(trx);
    const entry = rows.find((row) => row.id === id);
    if (!entry) throw new NotFoundError(`There is no ${kind.title} ${id}`);
    return { rows, entry };
  }

  function checkNameFree(names: Entry[], name: string, exceptId?: number): void {
    const clash = names.find((row) => row.id !== exceptId && row.name.trim().toLowerCase() === name.toLowerCase());
    if (clash) conflict(`There is a "${clash.name}" there already`, 'name');
  }

  /** Deleting what products point at: a product saved at that moment still wins (its key holds). */
  async function deleting(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        conflict(`This ${kind.noun} is in use by a product saved a moment ago; it stays.`);
      }
      throw error;
    }
  }

  const audit = (trx: Tx, staff: Staff, action: string, id: number, at: string, shown: object) =>
    recordAudit(trx, {
      staff,
      action: `${kind.entity}.${action}`,
      entityType: kind.entity,
      entityId: id,
      ...shown,
      at,
    });

  return {
    list: (): Promise<View[]> => kind.views(db),

    async create(input: Input, staff: Staff): Promise<View[]> {
      await change(async (trx, at) => {
        const rows = await kind.rows(trx);
        kind.checkPlace(rows, input);
        checkNameFree(kind.siblings(rows, input), input.name);
        const id = await kind.insert(trx, input);
        await audit(trx, staff, 'create', id, at, { after: kind.shape(input) });
      });
      return kind.views(db);
    },

    /** Renames it, or for a type moves it in the tree (to the end of its new siblings); search follows. */
    async update(id: number, input: Input, staff: Staff): Promise<View[]> {
      await change(async (trx, at) => {
        const { rows, entry } = await entryOrThrow(trx, id);
        kind.checkPlace(rows, input, id);
        checkNameFree(kind.siblings(rows, input), input.name, id);
        const changed = changes(kind.shape(entry), kind.shape(input));
        if (Object.keys(changed.after).length === 0) return;
        await kind.rewrite(trx, entry, input);
        await audit(trx, staff, 'update', id, at, changed);
      });
      return kind.views(db);
    },

    /** One place up or down among its siblings: the storefront's menus and filters list them in this order. */
    async reorder(id: number, direction: Direction, staff: Staff): Promise<View[]> {
      await change(async (trx, at) => {
        const { rows, entry } = await entryOrThrow(trx, id);
        const siblings = kind.siblings(rows, entry).map((row) => row.id);
        const order = moved(siblings, id, direction);
        if (order === siblings) return;
        await setOrder(trx, kind.table, order);
        await audit(trx, staff, 'reorder', id, at, {
          before: { position: siblings.indexOf(id) + 1 },
          after: { position: order.indexOf(id) + 1 },
        });
      });
      return kind.views(db);
    },

    /** Refused while a product (or, for a type, another type) uses it: nothing is left pointing nowhere. */
    async remove(id: number, staff: Staff): Promise<View[]> {
      await deleting(() =>
        change(async (trx, at) => {
          const { rows, entry } = await entryOrThrow(trx, id);
          const products = await kind.productCount(trx, id);
          if (products > 0) {
            conflict(
              `"${entry.name}" is the ${kind.noun} of ${plural(products, 'product')} (drafts and archived ones count too). Move them to another ${kind.noun} first.`,
            );
          }
          const blocker = kind.deleteBlocker(rows, entry);
          if (blocker) conflict(blocker);
          await kind.remove(trx, id);
          await audit(trx, staff, 'delete', id, at, { before: kind.shape(entry) });
        }),
      );
      return kind.views(db);
    },
  };
}

/** Types and brands, as the back office's catalogue routes call them. */
export function createTaxonomyAdminService(db: Db, options: CatalogueChangeOptions) {
  const types = taxonomyAdmin(db, options, productTypes);
  const brandList = taxonomyAdmin(db, options, brands);
  return {
    types: types.list,
    createType: types.create,
    updateType: types.update,
    reorderType: types.reorder,
    deleteType: types.remove,
    brands: brandList.list,
    createBrand: brandList.create,
    renameBrand: brandList.update,
    reorderBrand: brandList.reorder,
    deleteBrand: brandList.remove,
  };
}
