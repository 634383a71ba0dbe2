import { MAX_WEIGHT_GRAMS } from '../../contract/admin/shipping.ts';

/**
 * The one parcel a label is bought for (docs/back-office.md#shipping-labels): what the order's
 * units still to send weigh, with the empty weight of each preset box they go in, and the size of
 * the largest box among them. An order too heavy for one parcel, or with a unit whose weight is not
 * known, has no label made: staff dispatch it by hand.
 */

export interface UnitsToPack {
  title: string;
  sizeName: string;
  units: number;
  weightGrams: number | null;
  /** Its preset's box, or its own (all three sides), or none known. */
  box: { lengthMm: number; widthMm: number; heightMm: number; emptyGrams: number; preset: boolean } | null;
}

export interface Parcel {
  weightGrams: number;
  dimensions: { lengthMm: number; widthMm: number; heightMm: number } | null;
}

export type ParcelOrRefusal = { parcel: Parcel } | { refused: string };

export function parcelOf(lines: readonly UnitsToPack[]): ParcelOrRefusal {
  const toSend = lines.filter((line) => line.units > 0);
  if (toSend.length === 0) return { refused: 'Everything on this order has been sent: there is nothing to label.' };
  const unweighed = toSend.filter((line) => line.weightGrams === null);
  if (unweighed.length > 0)
    return {
      refused: `${unweighed.map((line) => `${line.title} (${line.sizeName})`).join(', ')} ${unweighed.length === 1 ? 'has' : 'have'} no weight: add it on the product's page, then make the label again.`,
    };
  let weightGrams = 0;
  let largest: Parcel['dimensions'] = null;
  const volume = (box: NonNullable<Parcel['dimensions']>) => box.lengthMm * box.widthMm * box.heightMm;
  for (const line of toSend) {
    // Each unit sent in a preset has a box of its own, whose empty weight goes on the scale.
    weightGrams += line.units * (line.weightGrams! + (line.box?.preset ? line.box.emptyGrams : 0));
    if (line.box && (largest === null || volume(line.box) > volume(largest)))
      largest = { lengthMm: line.box.lengthMm, widthMm: line.box.widthMm, heightMm: line.box.heightMm };
  }
  if (weightGrams > MAX_WEIGHT_GRAMS)
    return {
      refused: `This order weighs ${(weightGrams / 1000).toFixed(1)} kg, more than one parcel may (${MAX_WEIGHT_GRAMS / 1000} kg): send it in parts, dispatched by hand.`,
    };
  return { parcel: { weightGrams, dimensions: largest } };
}
