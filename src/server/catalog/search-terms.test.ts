import { describe, expect, it } from 'vitest';
import { keywordWords, toFts5Query, toTsQuery } from './search-terms.ts';

describe('search terms', () => {
  it('splits a keyword into lower-case words without accents or punctuation', () => {
    expect(keywordWords('  Tánpura, 4-String! ')).toEqual(['tanpura', '4', 'string']);
  });

  it('has no query for a keyword without words', () => {
    expect(toFts5Query('  !!  ')).toBeUndefined();
    expect(toTsQuery('"*()')).toBeUndefined();
  });

  it('matches every word as a prefix, with its synonyms', () => {
    expect(toFts5Query('dho')).toBe('("dho"*)');
    expect(toFts5Query('baja stand')).toBe(
      '("harmonium"* OR "baja"* OR "vaja"* OR "peti"* OR "paeti"* OR "harmonia"*) AND ("stand"*)',
    );
    expect(toTsQuery('dholki')).toBe('(dholak:* | dholki:* | dholaki:* | dholk:*)');
  });

  it('cannot be broken out of with quotes or operators', () => {
    expect(toFts5Query('a" OR 1=1 --')).toBe('("a"*) AND ("or"*) AND ("1"*) AND ("1"*)');
    expect(toTsQuery("x' | !y & (z")).toBe('(x:*) & (y:*) & (z:*)');
  });

  it('keeps at most 8 words of at most 40 characters', () => {
    const words = keywordWords(`${'a'.repeat(100)} ${'b '.repeat(20)}`);
    expect(words).toHaveLength(8);
    expect(words[0]).toHaveLength(40);
  });
});
