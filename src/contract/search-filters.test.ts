import { describe, expect, it } from 'vitest';
import type { ProductType } from './catalog.ts';
import { compactTypeIds, expandTypeIds, parseIdList, toggleType } from './search-filters.ts';

const leaf = (id: number, parentId: number): ProductType => ({ id, name: `T${id}`, parentId, childTypes: [] });
const types: ProductType[] = [
  { id: 1002, name: 'Drums', parentId: -1, childTypes: [leaf(2010, 1002), leaf(2035, 1002), leaf(2008, 1002)] },
  { id: 2009, name: 'Percussion', parentId: -1, childTypes: [] },
];

describe('category filter rules', () => {
  it('selecting a parent selects all its children, deselecting it deselects them', () => {
    const on = toggleType(types, new Set(), 1002);
    expect([...on].sort()).toEqual([1002, 2008, 2010, 2035]);
    expect([...toggleType(types, on, 1002)]).toEqual([]);
  });

  it('deselecting a child deselects its parent', () => {
    const all = toggleType(types, new Set(), 1002);
    const next = toggleType(types, all, 2035);
    expect(next.has(2035)).toBe(false);
    expect(next.has(1002)).toBe(false);
    expect([...next].sort()).toEqual([2008, 2010]);
  });

  it('selecting every child selects the parent', () => {
    let selected = toggleType(types, new Set(), 2010);
    selected = toggleType(types, selected, 2035);
    expect(selected.has(1002)).toBe(false);
    selected = toggleType(types, selected, 2008);
    expect(selected.has(1002)).toBe(true);
  });

  it('sends a selected parent alone, otherwise the selected children', () => {
    expect(compactTypeIds(types, toggleType(types, new Set(), 1002))).toEqual([1002]);
    expect(compactTypeIds(types, new Set([2010, 2008, 2009]))).toEqual([2010, 2008, 2009]);
  });

  it('expands ids from a URL, ignoring unknown ones', () => {
    expect([...expandTypeIds(types, [1002, 424242])].sort()).toEqual([1002, 2008, 2010, 2035]);
    expect([...expandTypeIds(types, [2010, 2035, 2008])].sort()).toEqual([1002, 2008, 2010, 2035]);
  });

  it('reads positive whole ids from a comma list', () => {
    expect(parseIdList('2017, 2009,x,-1,1.5,2017,1003')).toEqual([2017, 2009, 1003]);
    expect(parseIdList(null)).toEqual([]);
  });
});
