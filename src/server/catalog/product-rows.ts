import type { ProductInputParsed } from '../../contract/admin/catalogue.ts';
import type { ParcelFacts } from '../../contract/admin/shipping.ts';
import { discountedPrice } from '../../contract/money.ts';
import type { ProductWrite, SizeWrite } from './catalog.admin-repository.ts';
import { searchTagsOf, searchTextOf } from './search-index.ts';
import { typeChainNames, type TypeRow } from './type-tree.ts';

/**
 * A product as staff give it (the form's payload, or a product's rows of a CSV import) to the rows
 * the database keeps: the one mapping both use, so a product saved either way is stored alike.
 */

export type ProductFields = Omit<ProductInputParsed, 'sizes'>;
export type SizeFields = Pick<
  ProductInputParsed['sizes'][number],
  'sizeName' | 'priceWithoutDiscount' | 'priceReduction'
> & { parcel?: ParcelFacts | undefined };

/** A shopper's first look at a product in a search engine: its description's start. */
function summaryOf(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  return flat.length > 155 ? `${flat.slice(0, 152)}...` : flat;
}

/**
 * The product's row: blank SEO fields filled from the title and description, and what search
 * indexes worked out from its type's place in the tree, its brand and all its sizes' names
 * (search-index.ts). The type and brand are known to exist.
 */
export function productWriteOf(
  fields: ProductFields,
  known: { types: readonly TypeRow[]; brandName: string; sizeNames: readonly string[] },
): ProductWrite {
  return {
    title: fields.title,
    url_key: fields.urlKey,
    status: fields.status,
    product_type_id: fields.productTypeId,
    brand_id: fields.brandId,
    description: fields.description,
    seo_title: fields.seoTitle || fields.title,
    seo_keywords: fields.seoKeywords,
    seo_description: fields.seoDescription || summaryOf(fields.description),
    tags: fields.searchTags,
    search_tags: searchTagsOf(fields.searchTags, typeChainNames(fields.productTypeId, known.types), known.brandName),
    search_text: searchTextOf(known.sizeNames, fields.description),
    ...(fields.madeToOrder === undefined ? {} : { made_to_order: fields.madeToOrder ? 1 : 0 }),
  };
}

/** A size's row at its place among the product's sizes; the price it sells at is worked out here. */
export function sizeWriteOf(size: SizeFields, position: number): SizeWrite {
  return {
    size_name: size.sizeName,
    price_without_discount: size.priceWithoutDiscount,
    price_reduction: size.priceReduction,
    price: discountedPrice(size.priceWithoutDiscount, size.priceReduction),
    sort_order: position,
    ...(size.parcel === undefined
      ? {}
      : {
          weight_grams: size.parcel.weightGrams,
          packaging_id: size.parcel.packagingId,
          length_mm: size.parcel.lengthMm,
          width_mm: size.parcel.widthMm,
          height_mm: size.parcel.heightMm,
        }),
  };
}
