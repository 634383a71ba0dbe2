import { describe, expect, it } from 'vitest';
import { vatBreakdown, vatContainedIn } from './money.ts';

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
