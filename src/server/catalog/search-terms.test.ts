import { describe, expect, it } from 'vitest';
import { keywordAlternatives, keywordWords } from './search-terms.ts';
import { queryWordsOf } from './search-engine/terms.ts';

describe('search terms', () => {
  it('splits a keyword into lower-case words without accents or punctuation', () => {
    expect(keywordWords('  Tánpura, 4-String! ')).toEqual(['tanpura', '4', 'string']);
  });

  it('has no words for a keyword without letters or digits', () => {
    expect(keywordAlternatives('  !!  ')).toEqual([]);
    expect(queryWordsOf('"*()')).toEqual([]);
  });

  it('gives every word its synonyms, and a word without any itself', () => {
    expect(keywordAlternatives('dho')).toEqual([{ word: 'dho', alternatives: ['dho'] }]);
    expect(keywordAlternatives('baja stand')).toEqual([
      { word: 'baja', alternatives: ['harmonium', 'baja', 'vaja', 'peti', 'paeti', 'harmonia'] },
      { word: 'stand', alternatives: ['stand'] },
    ]);
    expect(keywordAlternatives('dholki')[0]?.alternatives).toEqual(['dholak', 'dholki', 'dholaki', 'dholk']);
  });

  it('reads quotes and operators as no more than the words between them', () => {
    expect(keywordWords('a" OR 1=1 --')).toEqual(['a', 'or', '1', '1']);
    expect(keywordWords("x' | !y & (z")).toEqual(['x', 'y', 'z']);
  });

  it('keeps at most 8 words of at most 40 characters', () => {
    const words = keywordWords(`${'a'.repeat(100)} ${'b '.repeat(20)}`);
    expect(words).toHaveLength(8);
    expect(words[0]).toHaveLength(40);
  });
});
