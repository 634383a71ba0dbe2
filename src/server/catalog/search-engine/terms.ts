import { stemmer } from 'stemmer';
import { keywordAlternatives } from '../search-terms.ts';

/**
 * Words as the in-process index keeps them (docs/decisions/0017-in-process-search-index.md):
 * lower case, accents dropped, letters and digits only, stemmed (Porter, as SQLite's tokenizer
 * was), so "Dholaks" and "dholak" are one term and "drums" finds "drum".
 */

/**
 * Stems already worked out: a catalogue repeats its words, and the stemmer's regular expressions
 * were most of a build's time and garbage. Forgotten whole when full.
 */
const stems = new Map<string, string>();
const MAX_STEMS = 200_000;

function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= MAX_STEMS) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}

/** The terms of a text, in order, repeats kept (their count weighs in the ranking). */
export function termsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map(stemOf);
}

/** A word of at least this many letters also finds terms one edit away (docs/rules.md#catalogue-and-search). */
export const TYPO_MIN_LENGTH = 5;

/** One word of a keyword as the index looks it up. */
export interface QueryWord {
  /** Terms that match when they begin with one of these: the word and its synonyms, as typed and stemmed. */
  prefixes: string[];
  /** Looked for one edit away too (a wrong, missing, extra or swapped letter), when long enough. */
  typoTargets: string[];
}

/** A keyword's words, each with its synonyms and transliterations (search-terms.ts); empty when it has none. */
export function queryWordsOf(keyword: string): QueryWord[] {
  return keywordAlternatives(keyword).map(({ word, alternatives }) => {
    const prefixes = new Set<string>();
    for (const alternative of alternatives) {
      prefixes.add(alternative);
      prefixes.add(stemOf(alternative));
    }
    const typoTargets = word.length >= TYPO_MIN_LENGTH ? [...new Set([word, stemOf(word)])] : [];
    return { prefixes: [...prefixes], typoTargets };
  });
}

/**
 * Whether `a` and `b` are at most one edit apart: one letter changed, added or removed, or two
 * neighbours swapped (the optimal string alignment distance is at most 1).
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    // One changed letter, or two swapped neighbours.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One letter more in the longer: skip it there.
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
