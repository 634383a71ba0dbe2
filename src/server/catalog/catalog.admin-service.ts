import type { Kysely } from 'kysely';
import type {
  BrandInput,
  BrandView,
  ProductDetail,
  ProductInputParsed,
  ProductList,
  ProductListFilter,
  ProductTypeInput,
  ProductTypeView,
} from '../../contract/admin/catalogue.ts';
import { TOP_LEVEL_PARENT_ID, URL_KEY_MAX, type ProductStatus } from '../../contract/catalog-rules.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { photoFallbackWidth, photoUrl } from '../../contract/photos.ts';
import { auditOf, recordAudit } from '../audit/audit.repository.ts';
import { auditView } from '../audit/audit.service.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  countProducts,
  deleteBrand,
  deleteType,
  deleteUnorderedSizes,
  dropOldUrlKey,
  findBrand,
  findImages,
  findOldUrlKeys,
  findProduct,
  findSizes,
  insertBrand,
  insertProduct,
  insertSize,
  insertType,
  keepOldUrlKey,
  listBrands,
  listProducts,
  listTypes,
  renameBrand,
  rewriteSearchTags,
  setOrder,
  typeRows,
  updateProduct,
  updateSize,
  updateType,
  urlKeyHolder,
  urlKeysLike,
  type ProductWrite,
} from './catalog.admin-repository.ts';
import { productImagesOf } from './photos/photo-views.ts';
import { listPhotos } from './photos/photos.repository.ts';
import { productWriteOf, sizeWriteOf } from './product-rows.ts';
import { searchTagsOf } from './search-index.ts';
import { typeChainNames, withDescendants, type TypeRow } from './type-tree.ts';

/**
 * The catalogue in the back office (docs/back-office.md#catalogue): products with their sizes,
 * types and brands. Every change is one transaction with its audit entry; once it has landed,
 * `onChange` clears this instance's catalogue and search caches, so the change shows here at once
 * (other instances' caches let it in within their seconds: ADR 0010).
 */

type Db = Kysely<Database>;
type Tx = Kysely<Database>;
type Direction = 'up' | 'down';

function conflict(message: string, field?: string): never {
  throw new RefusedError(409, errorCodes.conflict, message, field);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The fields an audit entry shows of a product, in the form's terms. */
function productShape(
  row: Pick<
    ProductWrite,
    | 'title'
    | 'url_key'
    | 'status'
    | 'product_type_id'
    | 'brand_id'
    | 'description'
    | 'seo_title'
    | 'seo_keywords'
    | 'seo_description'
    | 'tags'
  >,
  sizes: Array<{ sizeName: string; priceWithoutDiscount: number; priceReduction: number; stock?: number | undefined }>,
): Record<string, unknown> {
  return {
    title: row.title,
    urlKey: row.url_key,
    status: row.status,
    productTypeId: row.product_type_id,
    brandId: row.brand_id,
    description: row.description,
    seoTitle: row.seo_title,
    seoKeywords: row.seo_keywords,
    seoDescription: row.seo_description,
    searchTags: row.tags,
    sizes: sizes.map((size) => ({
      sizeName: size.sizeName,
      priceWithoutDiscount: size.priceWithoutDiscount,
      priceReduction: size.priceReduction,
      ...(size.stock !== undefined ? { openingStock: size.stock } : {}),
    })),
  };
}

/** Only what changed, before and after. */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

/** `ids` with `id` moved one place up or down; the same order at either end. */
function moved(ids: number[], id: number, direction: Direction): number[] {
  const from = ids.indexOf(id);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return ids;
  const next = [...ids];
  [next[from], next[to]] = [next[to] as number, next[from] as number];
  return next;
}

export function createCatalogAdminService(db: Db, options: { onChange: () => void; now?: () => Date }) {
  const now = () => (options.now?.() ?? new Date()).toISOString();

  /** One staff change and its audit entry, or none of it; then this instance forgets what it kept. */
  async function change<T>(work: (trx: Tx, at: string) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute((trx) => work(trx, now()));
    options.onChange();
    return result;
  }

  // ---- Products -------------------------------------------------------------------------------

  async function productDetail(id: number): Promise<ProductDetail> {
    const product = await findProduct(db, id);
    if (!product) throw new NotFoundError(`There is no product ${id}`);
    const [sizes, images, photos, oldUrlKeys, audit] = await Promise.all([
      findSizes(db, id),
      findImages(db, id),
      listPhotos(db, [id]),
      findOldUrlKeys(db, id),
      auditOf(db, 'product', id),
    ]);
    // Uploaded photos stand in for the drawings, as in the shop; the page shows them as thumbnails.
    const uploaded = productImagesOf(photos.photos, photos.variants).get(id) ?? [];
    return {
      id: product.id,
      title: product.title,
      urlKey: product.url_key,
      status: product.status,
      productTypeId: product.product_type_id,
      productTypeName: product.type_name,
      brandId: product.brand_id,
      brandName: product.brand_name,
      description: product.description,
      seoTitle: product.seo_title,
      seoKeywords: product.seo_keywords,
      seoDescription: product.seo_description,
      searchTags: product.tags,
      sizes: sizes.map((size) => ({
        id: size.id,
        sizeName: size.size_name,
        priceWithoutDiscount: size.price_without_discount,
        priceReduction: size.price_reduction,
        price: size.price,
        stock: size.stock,
        ordered: Boolean(size.ordered),
      })),
      images:
        uploaded.length > 0
          ? uploaded.map(({ photo }) => ({ imageUrl: photoUrl(photo.key, photoFallbackWidth(photo, 0), 'webp') }))
          : images.map((image) => ({ imageUrl: image.image_url })),
      oldUrlKeys,
      audit: audit.map(auditView),
    };
  }

  /** The product's row as the input says (product-rows.ts), once its type and brand are known to exist. */
  async function productRow(trx: Tx, input: ProductInputParsed): Promise<ProductWrite> {
    const [types, brand] = await Promise.all([typeRows(trx), findBrand(trx, input.brandId)]);
    if (!types.some((type) => type.id === input.productTypeId)) {
      throw new BadRequestError('There is no such product type', 'productTypeId');
    }
    if (!brand) throw new BadRequestError('There is no such brand', 'brandId');
    return productWriteOf(input, {
      types,
      brandName: brand.name,
      sizeNames: input.sizes.map((size) => size.sizeName),
    });
  }

  /**
   * The product takes `key`: refused when it is another product's key now. A key another product
   * had before passes to this one (its old links now lead here); the key this product leaves
   * answers a 301 to it from now on.
   */
  async function claimUrlKey(
    trx: Tx,
    key: string,
    productId: number | undefined,
    previousKey: string | undefined,
    at: string,
  ): Promise<void> {
    const holder = await urlKeyHolder(trx, key);
    if (holder?.current && holder.productId !== productId) {
      conflict(`The URL key "${key}" is taken by "${holder.title}"`, 'urlKey');
    }
    if (holder && !holder.current) await dropOldUrlKey(trx, key);
    if (productId !== undefined && previousKey !== undefined && previousKey !== key) {
      await keepOldUrlKey(trx, previousKey, productId, at);
    }
  }

  /** Sizes as the form lists them, in its order: kept ones renamed and repriced, new ones added, others removed. */
  async function writeSizes(trx: Tx, productId: number, sizes: ProductInputParsed['sizes']): Promise<void> {
    const existing = await findSizes(trx, productId);
    const existingIds = new Set(existing.map((size) => size.id));
    sizes.forEach((size, index) => {
      if (size.id !== undefined && !existingIds.has(size.id)) {
        throw new BadRequestError('That size is not one of this product’s', `sizes.${index}.id`);
      }
    });
    const kept = new Set(sizes.map((size) => size.id));
    const removed = existing.filter((size) => !kept.has(size.id));
    const ordered = removed.filter((size) => size.ordered).map((size) => `"${size.size_name}"`);
    const refuseOrdered = (names: string[]) =>
      conflict(
        `${names.join(', ')} ${names.length === 1 ? 'has' : 'have'} been ordered, so ${names.length === 1 ? 'it stays' : 'they stay'} on the product. Set the stock to 0 with a stock adjustment instead.`,
        'sizes',
      );
    if (ordered.length > 0) refuseOrdered(ordered);
    const deleted = await deleteUnorderedSizes(
      trx,
      productId,
      removed.map((size) => size.id),
    );
    // An order took one of them since it was read.
    if (deleted !== removed.length) refuseOrdered(removed.map((size) => `"${size.size_name}"`));
    for (const [position, size] of sizes.entries()) {
      const row = sizeWriteOf(size, position);
      if (size.id !== undefined) await updateSize(trx, productId, size.id, row);
      else await insertSize(trx, productId, { ...row, stock: size.stock ?? 0 });
    }
  }

  /** Two staff saving the same new URL key at once: the second is told, as if it had been taken before. */
  async function savingProduct<T>(key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) conflict(`The URL key "${key}" is taken by another product`, 'urlKey');
      throw error;
    }
  }

  /** A URL key no product has now or had before: `{base}`, else `{base}-2`, `{base}-3`... */
  async function freeUrlKey(trx: Tx, wanted: string): Promise<string> {
    const base = wanted.slice(0, URL_KEY_MAX - 6).replace(/-+$/, '');
    const taken = await urlKeysLike(trx, base);
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  // ---- Types and brands -----------------------------------------------------------------------

  function typeViews(rows: Awaited<ReturnType<typeof listTypes>>): ProductTypeView[] {
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      parentId: row.parent_id,
      sortOrder: row.sort_order,
      products: Number(row.products ?? 0),
    }));
  }

  function brandViews(rows: Awaited<ReturnType<typeof listBrands>>): BrandView[] {
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      sortOrder: row.sort_order,
      products: Number(row.products ?? 0),
    }));
  }

  async function typeOrThrow(trx: Tx, id: number): Promise<{ types: TypeRow[]; type: TypeRow }> {
    const types = await typeRows(trx);
    const type = types.find((row) => row.id === id);
    if (!type) throw new NotFoundError(`There is no product type ${id}`);
    return { types, type };
  }

  async function brandOrThrow(trx: Tx, id: number) {
    const brand = await findBrand(trx, id);
    if (!brand) throw new NotFoundError(`There is no brand ${id}`);
    return brand;
  }

  function checkParent(types: TypeRow[], parentId: number, movingId?: number): void {
    if (parentId === TOP_LEVEL_PARENT_ID) return;
    if (!types.some((type) => type.id === parentId)) {
      throw new BadRequestError('There is no such product type to put it in', 'parentId');
    }
    if (movingId !== undefined && withDescendants([movingId], types).includes(parentId)) {
      throw new BadRequestError('A type cannot go inside itself or one of the types inside it', 'parentId');
    }
  }

  function checkNameFree(names: Array<{ id: number; name: string }>, name: string, exceptId?: number): void {
    const clash = names.find((row) => row.id !== exceptId && row.name.trim().toLowerCase() === name.toLowerCase());
    if (clash) conflict(`There is a "${clash.name}" there already`, 'name');
  }

  /** The indexed search tags of these types' products (and their descendants'), after a rename or a move. */
  async function reindexTypes(trx: Tx, typeIds: number[]): Promise<void> {
    const [types, brands] = await Promise.all([typeRows(trx), listBrands(trx)]);
    const brandNames = new Map(brands.map((brand) => [brand.id, brand.name]));
    await rewriteSearchTags(trx, { typeIds: withDescendants(typeIds, types) }, (typeId, brandId) =>
      searchTagsOf('', typeChainNames(typeId, types), brandNames.get(brandId) ?? ''),
    );
  }

  async function reindexBrand(trx: Tx, brandId: number, brandName: string): Promise<void> {
    const types = await typeRows(trx);
    await rewriteSearchTags(trx, { brandId }, (typeId) => searchTagsOf('', typeChainNames(typeId, types), brandName));
  }

  /** Deleting what products point at: a product saved at that moment still wins (its key holds). */
  async function deleting(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        conflict(`${what} is in use by a product saved a moment ago; it stays.`);
      }
      throw error;
    }
  }

  return {
    async listProducts(query: ProductListFilter): Promise<ProductList> {
      const { typeId, ...filters } = query;
      const typeIds = typeId === undefined ? undefined : withDescendants([typeId], await typeRows(db));
      const { rows, total } = await listProducts(db, { ...filters, typeIds });
      return {
        products: rows.map((row) => ({
          id: row.id,
          title: row.title,
          urlKey: row.url_key,
          status: row.status,
          productTypeId: row.product_type_id,
          productTypeName: row.type_name,
          brandId: row.brand_id,
          brandName: row.brand_name,
          sizes: Number(row.sizes ?? 0),
          stock: Number(row.stock ?? 0),
          lowestPrice: row.lowest_price === null || row.lowest_price === undefined ? null : Number(row.lowest_price),
        })),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    product: productDetail,

    async createProduct(input: ProductInputParsed, staff: Staff): Promise<ProductDetail> {
      const id = await savingProduct(input.urlKey, () =>
        change(async (trx, at) => {
          const row = await productRow(trx, input);
          await claimUrlKey(trx, row.url_key, undefined, undefined, at);
          const productId = await insertProduct(trx, row);
          await writeSizes(trx, productId, input.sizes);
          await recordAudit(trx, {
            staff,
            action: 'product.create',
            entityType: 'product',
            entityId: productId,
            after: productShape(row, input.sizes),
            at,
          });
          return productId;
        }),
      );
      return productDetail(id);
    },

    async updateProduct(id: number, input: ProductInputParsed, staff: Staff): Promise<ProductDetail> {
      await savingProduct(input.urlKey, () =>
        change(async (trx, at) => {
          const before = await findProduct(trx, id);
          if (!before) throw new NotFoundError(`There is no product ${id}`);
          const sizesBefore = (await findSizes(trx, id)).map((size) => ({
            sizeName: size.size_name,
            priceWithoutDiscount: size.price_without_discount,
            priceReduction: size.price_reduction,
          }));
          const row = await productRow(trx, input);
          await claimUrlKey(trx, row.url_key, id, before.url_key, at);
          await updateProduct(trx, id, row);
          await writeSizes(trx, id, input.sizes);
          const changed = changes(productShape(before, sizesBefore), productShape(row, input.sizes));
          if (Object.keys(changed.after).length === 0) return;
          await recordAudit(trx, {
            staff,
            action: 'product.update',
            entityType: 'product',
            entityId: id,
            ...changed,
            at,
          });
        }),
      );
      return productDetail(id);
    },

    /** Publish, take back to draft, or archive: only published products are shown to shoppers. */
    async setProductStatus(id: number, status: ProductStatus, staff: Staff): Promise<ProductDetail> {
      await change(async (trx, at) => {
        const before = await findProduct(trx, id);
        if (!before) throw new NotFoundError(`There is no product ${id}`);
        if (before.status === status) return;
        await updateProduct(trx, id, { status });
        await recordAudit(trx, {
          staff,
          action: 'product.status',
          entityType: 'product',
          entityId: id,
          before: { status: before.status },
          after: { status },
          at,
        });
      });
      return productDetail(id);
    },

    /**
     * A copy to start a similar product from: a draft with its own URL key, the same text and sizes
     * at no stock (stock arrives through adjustments). Photos are not copied.
     */
    async duplicateProduct(id: number, staff: Staff): Promise<ProductDetail> {
      const copyId = await change(async (trx, at) => {
        const source = await findProduct(trx, id);
        if (!source) throw new NotFoundError(`There is no product ${id}`);
        const title = `${source.title} (copy)`.slice(0, 200);
        const row: ProductWrite = {
          title,
          url_key: await freeUrlKey(trx, `${source.url_key}-copy`),
          status: 'draft',
          product_type_id: source.product_type_id,
          brand_id: source.brand_id,
          description: source.description,
          seo_title: source.seo_title === source.title ? title : source.seo_title,
          seo_keywords: source.seo_keywords,
          seo_description: source.seo_description,
          tags: source.tags,
          search_tags: source.search_tags,
          search_text: source.search_text,
        };
        const newId = await insertProduct(trx, row);
        for (const [position, size] of (await findSizes(trx, id)).entries()) {
          await insertSize(trx, newId, {
            size_name: size.size_name,
            price: size.price,
            price_reduction: size.price_reduction,
            price_without_discount: size.price_without_discount,
            sort_order: position,
            stock: 0,
          });
        }
        await recordAudit(trx, {
          staff,
          action: 'product.duplicate',
          entityType: 'product',
          entityId: newId,
          after: { copiedFrom: id, title, urlKey: row.url_key, status: 'draft' },
          at,
        });
        return newId;
      });
      return productDetail(copyId);
    },

    // ---- Types --------------------------------------------------------------------------------

    async types(): Promise<ProductTypeView[]> {
      return typeViews(await listTypes(db));
    },

    async createType(input: ProductTypeInput, staff: Staff): Promise<ProductTypeView[]> {
      await change(async (trx, at) => {
        const types = await typeRows(trx);
        checkParent(types, input.parentId);
        checkNameFree(
          types.filter((type) => type.parent_id === input.parentId),
          input.name,
        );
        const id = await insertType(trx, input);
        await recordAudit(trx, {
          staff,
          action: 'product_type.create',
          entityType: 'product_type',
          entityId: id,
          after: { name: input.name, parentId: input.parentId },
          at,
        });
      });
      return typeViews(await listTypes(db));
    },

    /** Renames it or moves it in the tree (to the end of its new siblings); search follows. */
    async updateType(id: number, input: ProductTypeInput, staff: Staff): Promise<ProductTypeView[]> {
      await change(async (trx, at) => {
        const { types, type } = await typeOrThrow(trx, id);
        checkParent(types, input.parentId, id);
        checkNameFree(
          types.filter((row) => row.parent_id === input.parentId),
          input.name,
          id,
        );
        const changed = changes({ name: type.name, parentId: type.parent_id }, input);
        if (Object.keys(changed.after).length === 0) return;
        await updateType(trx, id, { ...input, moved: input.parentId !== type.parent_id });
        await reindexTypes(trx, [id]);
        await recordAudit(trx, {
          staff,
          action: 'product_type.update',
          entityType: 'product_type',
          entityId: id,
          ...changed,
          at,
        });
      });
      return typeViews(await listTypes(db));
    },

    /** One place up or down among its siblings: the storefront's menu and filters list them in this order. */
    async reorderType(id: number, direction: Direction, staff: Staff): Promise<ProductTypeView[]> {
      await change(async (trx, at) => {
        const { types, type } = await typeOrThrow(trx, id);
        const siblings = types.filter((row) => row.parent_id === type.parent_id).map((row) => row.id);
        const order = moved(siblings, id, direction);
        if (order === siblings) return;
        await setOrder(trx, 'product_types', order);
        await recordAudit(trx, {
          staff,
          action: 'product_type.reorder',
          entityType: 'product_type',
          entityId: id,
          before: { position: siblings.indexOf(id) + 1 },
          after: { position: order.indexOf(id) + 1 },
          at,
        });
      });
      return typeViews(await listTypes(db));
    },

    /** Refused while a product or another type uses it: nothing is left pointing nowhere. */
    async deleteType(id: number, staff: Staff): Promise<ProductTypeView[]> {
      await deleting('This type', () =>
        change(async (trx, at) => {
          const { types, type } = await typeOrThrow(trx, id);
          const products = await countProducts(trx, { typeId: id });
          if (products > 0) {
            conflict(
              `"${type.name}" is the type of ${plural(products, 'product')} (drafts and archived ones count too). Move them to another type first.`,
            );
          }
          const children = types.filter((row) => row.parent_id === id).length;
          if (children > 0) {
            conflict(`"${type.name}" has ${plural(children, 'type')} inside it. Move or delete them first.`);
          }
          await deleteType(trx, id);
          await recordAudit(trx, {
            staff,
            action: 'product_type.delete',
            entityType: 'product_type',
            entityId: id,
            before: { name: type.name, parentId: type.parent_id },
            at,
          });
        }),
      );
      return typeViews(await listTypes(db));
    },

    // ---- Brands -------------------------------------------------------------------------------

    async brands(): Promise<BrandView[]> {
      return brandViews(await listBrands(db));
    },

    async createBrand(input: BrandInput, staff: Staff): Promise<BrandView[]> {
      await change(async (trx, at) => {
        checkNameFree(await listBrands(trx), input.name);
        const id = await insertBrand(trx, input.name);
        await recordAudit(trx, {
          staff,
          action: 'brand.create',
          entityType: 'brand',
          entityId: id,
          after: { name: input.name },
          at,
        });
      });
      return brandViews(await listBrands(db));
    },

    async renameBrand(id: number, input: BrandInput, staff: Staff): Promise<BrandView[]> {
      await change(async (trx, at) => {
        const brand = await brandOrThrow(trx, id);
        checkNameFree(await listBrands(trx), input.name, id);
        if (brand.name === input.name) return;
        await renameBrand(trx, id, input.name);
        await reindexBrand(trx, id, input.name);
        await recordAudit(trx, {
          staff,
          action: 'brand.update',
          entityType: 'brand',
          entityId: id,
          before: { name: brand.name },
          after: { name: input.name },
          at,
        });
      });
      return brandViews(await listBrands(db));
    },

    async reorderBrand(id: number, direction: Direction, staff: Staff): Promise<BrandView[]> {
      await change(async (trx, at) => {
        await brandOrThrow(trx, id);
        const list = (await listBrands(trx)).map((brand) => brand.id);
        const order = moved(list, id, direction);
        if (order === list) return;
        await setOrder(trx, 'brands', order);
        await recordAudit(trx, {
          staff,
          action: 'brand.reorder',
          entityType: 'brand',
          entityId: id,
          before: { position: list.indexOf(id) + 1 },
          after: { position: order.indexOf(id) + 1 },
          at,
        });
      });
      return brandViews(await listBrands(db));
    },

    async deleteBrand(id: number, staff: Staff): Promise<BrandView[]> {
      await deleting('This brand', () =>
        change(async (trx, at) => {
          const brand = await brandOrThrow(trx, id);
          const products = await countProducts(trx, { brandId: id });
          if (products > 0) {
            conflict(
              `"${brand.name}" is the brand of ${plural(products, 'product')} (drafts and archived ones count too). Move them to another brand first.`,
            );
          }
          await deleteBrand(trx, id);
          await recordAudit(trx, {
            staff,
            action: 'brand.delete',
            entityType: 'brand',
            entityId: id,
            before: { name: brand.name },
            at,
          });
        }),
      );
      return brandViews(await listBrands(db));
    },
  };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
