import { describe, expect, it } from 'vitest';
import { goodsLessVoucherShare, vatBreakdown, vatContainedIn, voucherShareOf } from './money.ts';

describe('vatBreakdown: an invoice’s lines split into net and VAT', () => {
  it('makes the lines’ VAT add up to the VAT the shop charged on the total', () => {
    // Three lines whose own VAT, each rounded, would add up to a penny more than the total's.
    const lines = [1003, 1003, 1003];
    const split = vatBreakdown(lines);
    expect(split.gross).toBe(3009);
    expect(split.vat).toBe(vatContainedIn(3009));
    expect(split.net).toBe(3009 - vatContainedIn(3009));
    expect(split.lines.reduce((sum, line) => sum + line.vat, 0)).toBe(split.vat);
    expect(split.lines.reduce((sum, line) => sum + line.net, 0)).toBe(split.net);
    for (const [i, line] of split.lines.entries()) {
      expect(line.gross).toBe(lines[i]);
      expect(line.net + line.vat).toBe(line.gross);
    }
  });

  it('takes a discount as a negative line, its VAT negative too', () => {
    const split = vatBreakdown([12000, -1200, 495]);
    expect(split.gross).toBe(11295);
    expect(split.vat).toBe(vatContainedIn(11295));
    expect(split.lines[1]).toEqual({ gross: -1200, net: -1000, vat: -200 });
    expect(split.lines.reduce((sum, line) => sum + line.vat, 0)).toBe(split.vat);
  });

  it('gives a line of nothing (free delivery) no VAT', () => {
    expect(vatBreakdown([2400, 0]).lines[1]).toEqual({ gross: 0, net: 0, vat: 0 });
  });
});

describe('voucherShareOf: a voucher’s discount taken back piece by piece', () => {
  const order = { itemsTotal: 3000, discount: 200 };

  it('adds up to the whole discount whatever the pieces, where rounding each alone would not', () => {
    for (const pieces of [[1000, 1000, 1000], [1000, 2000], [1, 999, 1999, 1], [3000]]) {
      let before = 0;
      let shares = 0;
      for (const goods of pieces) {
        shares += voucherShareOf(goods, order, before);
        before += goods;
      }
      expect(shares).toBe(200);
    }
    expect(3 * Math.round((200 * 1000) / 3000)).toBe(201);
  });

  it('takes no share without a voucher, and never past the items', () => {
    expect(voucherShareOf(1000, { itemsTotal: 3000, discount: 0 })).toBe(0);
    expect(voucherShareOf(5000, order, 3000)).toBe(0);
    expect(goodsLessVoucherShare(1000, order)).toBe(933);
    expect(goodsLessVoucherShare(1000, order, 1000)).toBe(934);
  });
});
