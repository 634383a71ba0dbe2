import { describe, expect, it } from 'vitest';
import { poundsToPence } from './format.ts';

describe('poundsToPence', () => {
  it('reads pounds as typed into whole pence, without float error', () => {
    expect(poundsToPence('12.50')).toBe(1250);
    expect(poundsToPence('£0.29')).toBe(29);
    expect(poundsToPence('1,234.5')).toBe(123450);
    expect(poundsToPence(' 7 ')).toBe(700);
    expect(poundsToPence('0.07')).toBe(7);
  });

  it('answers undefined for what is not an amount', () => {
    for (const typed of ['', 'abc', '1.234', '-5', '1e3', '£', '.5.'])
      expect(poundsToPence(typed), typed).toBeUndefined();
  });
});
