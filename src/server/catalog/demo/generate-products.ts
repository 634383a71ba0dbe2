import { discountedPrice } from '../../../contract/money.ts';
import type { SeedProduct, SeedStock } from '../../db/seed/seed.ts';
import { IMAGE_VARIANTS, productImageUrl } from '../images/drawings.ts';
import {
  demoBrands,
  demoTypes,
  demoWeightGrams,
  kindSearchWords,
  productLines,
  type ProductLine,
} from './catalogue-data.ts';
import { slugify } from '../../../contract/catalog-rules.ts';
import { searchTagsOf } from '../search-index.ts';

/** Small, fast, seedable PRNG (mulberry32) so every fresh database gets the same catalogue. */
export function randomFor(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const typeById = new Map<number, { id: number; name: string; parentId: number }>(demoTypes.map((t) => [t.id, t]));
const brandById = new Map<number, string>(demoBrands.map((b) => [b.id, b.name]));
const models = productLines.flatMap((line) => line.models.map(([title, blurb]) => ({ line, title, blurb })));

/** The number of products in the demo catalogue: every model once. */
export const DEMO_PRODUCT_COUNT = models.length;

/** A shop price: whole pounds less a penny above £20, otherwise whole or half pounds. */
function shopPrice(pence: number): number {
  const nearest = (step: number) => Math.round(pence / step) * step;
  return pence >= 2_000 ? nearest(POUND) - 1 : nearest(POUND / 2);
}
const POUND = 100;

function stocksFor(line: ProductLine, random: () => number): SeedStock[] {
  const count = 1 + Math.floor(random() * Math.min(4, line.choices.length));
  const base = shopPrice(line.priceFrom + random() * (line.priceTo - line.priceFrom));
  const discounted = random() < 0.3;
  const soldOut = random() < 0.1;
  const reductions = [5, 10, 15, 20, 25];
  return line.choices.slice(0, count).map((sizeName, index) => {
    // Bigger sizes and better styles cost more, but stay near the line's top price.
    const priceWithoutDiscount =
      index === 0 ? base : shopPrice(Math.min(base * (1 + index * (0.08 + random() * 0.17)), line.priceTo * 1.1));
    const priceReduction =
      discounted && (index === 0 || random() < 0.5) ? (reductions[Math.floor(random() * reductions.length)] ?? 10) : 0;
    const stock = soldOut || random() < 0.12 ? 0 : 1 + Math.floor(random() * 25);
    return {
      sizeName,
      priceWithoutDiscount,
      priceReduction,
      price: discountedPrice(priceWithoutDiscount, priceReduction),
      stock,
      // Bigger sizes weigh a little more.
      weightGrams: Math.round((demoWeightGrams[line.typeId] ?? 1000) * (1 + index * 0.1)),
    };
  });
}

/** Product number `index` of a catalogue; the first DEMO_PRODUCT_COUNT are the demo products. */
export function generateProduct(index: number): SeedProduct {
  const model = models[index % models.length];
  if (!model) throw new Error('the catalogue data has no models');
  const { line, blurb } = model;
  const edition = Math.floor(index / models.length);
  const random = randomFor(index * 7919 + 17);
  const title = edition === 0 ? model.title : `${model.title} - Edition ${edition + 1}`;
  const type = typeById.get(line.typeId);
  const parent = type ? typeById.get(type.parentId) : undefined;
  const brandId = line.brandIds[(index + edition) % line.brandIds.length] ?? 1;
  const brandName = brandById.get(brandId) ?? '';
  const typeName = type?.name ?? '';
  const stocks = stocksFor(line, random);
  const features = [...line.features].sort(() => random() - 0.5).slice(0, 3);
  const description = [
    blurb,
    `A fair-trade instrument from ${brandName}, made by craftspeople who have built ${typeName.toLowerCase()} for generations.`,
    '',
    'Features:',
    ...features.map((feature) => `- ${feature}`),
    '',
    `Available as: ${stocks.map((s) => s.sizeName).join(', ')}.`,
    '',
    `Care: ${line.care}`,
  ].join('\n');
  const imageCount = 2 + Math.floor(random() * 3);
  const firstVariant = index % IMAGE_VARIANTS;
  const images = Array.from({ length: imageCount }, (_, i) =>
    productImageUrl(line.kind, ((firstVariant + i * 3) % IMAGE_VARIANTS) + 1),
  );
  return {
    urlKey: slugify(title),
    title,
    brandId,
    typeId: line.typeId,
    description,
    seoTitle: `${title} | ${typeName}`,
    seoKeywords: [typeName, parent?.name, brandName, line.kind, 'Indian musical instruments UK']
      .filter(Boolean)
      .join(', '),
    seoDescription: blurb.length > 155 ? `${blurb.slice(0, 152)}...` : blurb,
    tags: kindSearchWords[line.kind],
    searchTags: searchTagsOf(kindSearchWords[line.kind], [typeName, parent?.name ?? ''], brandName),
    searchText: [line.choices.join(' '), description].join(' '),
    images,
    stocks,
  };
}
