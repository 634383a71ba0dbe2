import { describe, expect, it } from 'vitest';
import { parcelOf, type UnitsToPack } from './parcels.ts';

const crate = { lengthMm: 600, widthMm: 400, heightMm: 450, emptyGrams: 2500, preset: true };
const line = (overrides: Partial<UnitsToPack>): UnitsToPack => ({
  title: 'Harmonium',
  sizeName: '3 octave',
  units: 1,
  weightGrams: 9000,
  box: crate,
  ...overrides,
});

describe('the parcel a label is bought for', () => {
  it("weighs every unit left to send with each preset box's empty weight, and takes the largest box's size", () => {
    const strings = line({
      title: 'Strings',
      sizeName: 'Set',
      units: 3,
      weightGrams: 40,
      box: { lengthMm: 200, widthMm: 100, heightMm: 10, emptyGrams: 999, preset: false },
    });
    expect(parcelOf([line({ units: 2 }), strings, line({ title: 'Sent', units: 0, weightGrams: null })])).toEqual({
      parcel: { weightGrams: 2 * (9000 + 2500) + 3 * 40, dimensions: { lengthMm: 600, widthMm: 400, heightMm: 450 } },
    });
    expect(parcelOf([line({ box: null, weightGrams: 120 })])).toEqual({
      parcel: { weightGrams: 120, dimensions: null },
    });
  });

  it('refuses a unit without a weight, naming it, and an order heavier than one parcel may be', () => {
    expect(parcelOf([line({}), line({ title: 'Tabla', sizeName: 'Pair', weightGrams: null })])).toEqual({
      refused: "Tabla (Pair) has no weight: add it on the product's page, then make the label again.",
    });
    expect(parcelOf([line({ units: 3 })])).toEqual({
      refused: 'This order weighs 34.5 kg, more than one parcel may (30 kg): send it in parts, dispatched by hand.',
    });
    expect(parcelOf([line({ units: 0 })])).toEqual({
      refused: 'Everything on this order has been sent: there is nothing to label.',
    });
  });
});
