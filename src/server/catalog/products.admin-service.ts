import type {
  ProductDetail,
  ProductInputParsed,
  ProductList,
  ProductListFilter,
} from '../../contract/admin/catalogue.ts';
import { URL_KEY_MAX, type ProductStatus } from '../../contract/catalog-rules.ts';
import { photoFallbackWidth, photoUrl } from '../../contract/photos.ts';
import { auditOf, recordAudit } from '../audit/audit.repository.ts';
import { auditView } from '../audit/audit.service.ts';
import { isUniqueViolation } from '../db/database.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  deleteUnorderedSizes,
  dropOldUrlKey,
  findBrand,
  findImages,
  findOldUrlKeys,
  findProduct,
  findSizes,
  insertProduct,
  insertSize,
  keepOldUrlKey,
  listProducts,
  typeRows,
  updateProduct,
  updateSize,
  urlKeyHolder,
  urlKeysLike,
  type ProductWrite,
} from './catalog.admin-repository.ts';
import {
  catalogueChanges,
  changes,
  conflict,
  type CatalogueChangeOptions,
  type Db,
  type Tx,
} from './catalogue-changes.ts';
import { productImagesOf } from './photos/photo-views.ts';
import { listPhotos } from './photos/photos.repository.ts';
import { productWriteOf, sizeWriteOf } from './product-rows.ts';
import { withDescendants } from './type-tree.ts';
import { existingPackagingIds } from '../shipping/packagings.repository.ts';

/**
 * Products with their sizes in the back office (docs/back-office.md#catalogue): list, create, edit,
 * publish or archive, duplicate. Each change is one transaction with its audit entry
 * (catalogue-changes.ts).
 */

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

export function createProductsAdminService(db: Db, options: CatalogueChangeOptions) {
  const { change } = catalogueChanges(db, options);

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
      madeToOrder: product.made_to_order === 1,
      sizes: sizes.map((size) => ({
        id: size.id,
        sizeName: size.size_name,
        priceWithoutDiscount: size.price_without_discount,
        priceReduction: size.price_reduction,
        price: size.price,
        stock: size.stock,
        parcel: {
          weightGrams: size.weight_grams,
          packagingId: size.packaging_id,
          lengthMm: size.length_mm,
          widthMm: size.width_mm,
          heightMm: size.height_mm,
        },
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
    const packagingIds = sizes.flatMap((size) => (size.parcel?.packagingId ? [size.parcel.packagingId] : []));
    const known = new Set(await existingPackagingIds(trx, packagingIds));
    sizes.forEach((size, index) => {
      const packagingId = size.parcel?.packagingId;
      if (packagingId && !known.has(packagingId))
        throw new BadRequestError('There is no such packaging', `sizes.${index}.parcel.packagingId`);
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
  };
}

export type ProductsAdminService = ReturnType<typeof createProductsAdminService>;
