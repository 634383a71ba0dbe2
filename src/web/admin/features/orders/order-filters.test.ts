import { describe, expect, it } from 'vitest';
import { filtersFromSearch, searchOf } from './order-filters.ts';

describe('the order list’s filters in the URL', () => {
  it('reads the valid ones and leaves out the rest', () => {
    const query = filtersFromSearch(
      new URLSearchParams(
        'status=paid&paid=maybe&from=2026-01-01&to=01/02/2026&q=%20B70%207NJ%20&page=3&sort=sideways',
      ),
    );
    expect(query).toEqual({ status: 'paid', from: '2026-01-01', q: 'B70 7NJ', page: 3 });
  });

  it('writes them back without empty values or defaults, so a link stays short', () => {
    expect(searchOf({ status: 'paid', q: '', page: 1, sort: 'newest', pageSize: 25 })).toBe('?status=paid');
    expect(searchOf({ q: 'tr197aa', sort: 'total-high', page: 2 })).toBe('?q=tr197aa&sort=total-high&page=2');
    expect(searchOf({})).toBe('');
  });
});
