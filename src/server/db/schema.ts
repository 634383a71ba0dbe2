import type { Generated } from 'kysely';

/** Table shapes as Kysely sees them. Column names are snake_case; the contract speaks camelCase. */

export interface ProductTypeTable {
  id: number;
  name: string;
  parent_id: number;
  sort_order: number;
}

export interface BrandTable {
  id: number;
  name: string;
}

export interface ProductTable {
  id: Generated<number>;
  url_key: string;
  title: string;
  brand_id: number;
  product_type_id: number;
  description: string;
  seo_title: string;
  seo_keywords: string;
  seo_description: string;
  /** Words naming what the product is: type and parent type names, brand, kind of instrument. */
  search_tags: string;
  /** Everything else a shopper may search by: sizes, styles, description. */
  search_text: string;
}

export interface ProductImageTable {
  id: Generated<number>;
  product_id: number;
  image_url: string;
  sort_order: number;
}

export interface ProductStockTable {
  id: Generated<number>;
  product_id: number;
  size_name: string;
  price: number;
  price_reduction: number;
  price_without_discount: number;
  stock: number;
  sort_order: number;
}

export interface CountryTable {
  id: number;
  name: string;
  iso_code: string;
}

export interface TitleTable {
  id: number;
  name: string;
  sort_order: number;
}

export interface Database {
  product_types: ProductTypeTable;
  brands: BrandTable;
  products: ProductTable;
  product_images: ProductImageTable;
  product_stocks: ProductStockTable;
  countries: CountryTable;
  titles: TitleTable;
}
