/** Catalogue limits and constants, free of zod so browsing pages can import them cheaply. */
export const MAX_RANDOM_COUNT = 36;
export const DEFAULT_PAGE_SIZE = 36;
export const MAX_PAGE_SIZE = 100;
export const MAX_FILTER_IDS = 50;
export const MAX_KEYWORD_LENGTH = 100;
export const TOP_LEVEL_PARENT_ID = -1;
/** docs/rules.md#catalogue-and-search: a keyword needs 2 characters to search and more than 2 to go into the URL. */
export const MIN_SEARCH_KEYWORD = 2;
export const MIN_URL_KEYWORD = 3;
export const RELATED_PRODUCT_COUNT = 4;
export const HOME_SECTION_PRODUCT_COUNT = 8;
