/**
 * A shopper's keyword as the search engine reads it (search-engine/terms.ts): its words, each with
 * the domain's transliterations and synonyms (docs/rules.md#catalogue-and-search). Each matches as a
 * prefix ("dho" finds dhol and dholak), and all words must match.
 */

/** Words that mean the same thing to a shopper. A word in a group also finds the others. */
const synonymGroups: string[][] = [
  ['harmonium', 'baja', 'vaja', 'peti', 'paeti', 'harmonia'],
  ['dholak', 'dholki', 'dholaki', 'dholk'],
  ['tabla', 'tabala', 'tablaa'],
  ['dhol', 'dhool', 'dhole'],
  ['tanpura', 'tambura', 'tamboora', 'tanpoora', 'tampura', 'tambora'],
  ['sitar', 'sitaar', 'setar'],
  ['shruti', 'sruti', 'shruthi'],
  ['manjira', 'manjeera', 'jhanj', 'manjeeras'],
  ['ghungroo', 'ghungru', 'ghunghroo', 'ghungroos'],
  ['mridangam', 'mridang', 'mirdangam'],
  ['bansuri', 'flute', 'bansri', 'bansooree'],
  ['santoor', 'santur'],
  ['sarangi', 'saarangi'],
  ['kartal', 'khartal', 'kartaal'],
  ['daf', 'duff', 'dafli'],
  ['shehnai', 'shenai', 'shahnai'],
  ['puri', 'skin', 'head'],
];

const synonymsOf = new Map<string, string[]>();
for (const group of synonymGroups) {
  for (const word of group) synonymsOf.set(word, group);
}

const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;

/** The keyword's words: lower case, accents dropped, letters and digits only. */
export function keywordWords(keyword: string): string[] {
  return keyword
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_WORDS)
    .map((word) => word.slice(0, MAX_WORD_LENGTH));
}

function alternativesFor(word: string): string[] {
  return synonymsOf.get(word) ?? [word];
}

/** The keyword's words, each with the words that mean the same (itself first when it has none). */
export function keywordAlternatives(keyword: string): Array<{ word: string; alternatives: string[] }> {
  return keywordWords(keyword).map((word) => ({ word, alternatives: alternativesFor(word) }));
}
