/**
 * What a product is searched by (docs/rules.md#catalogue-and-search). The search engine's index
 * (search-engine/, docs/decisions/0026-one-search-engine.md) reads three columns:
 * the title (weighed most), `search_tags` (what the product is) and `search_text` (everything
 * else). The server writes the last two from what staff edit, so renaming a type or a brand, or
 * moving a type, keeps search in step.
 */

/** The tags staff typed, then the product's type, its ancestors (nearest first) and its brand. */
export function searchTagsOf(tags: string, typeNames: readonly string[], brandName: string): string {
  return [tags, ...typeNames, brandName]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}

/** The sizes and styles, then the description. */
export function searchTextOf(sizeNames: readonly string[], description: string): string {
  return [sizeNames.join(' '), description]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
}
