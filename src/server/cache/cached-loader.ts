import { LRUCache } from 'lru-cache';

/** Told how many look-ups a cache answered itself and how many it read (the metrics' hit ratios). */
export type CountLookup = (hits: number, misses: number) => void;
export const countNothing: CountLookup = () => undefined;

/**
 * Milliseconds now, as the caches tell age: Date.now when serving; a test gives its own clock and
 * moves it on, so a cache's lifetime is tested without waiting it out.
 */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
// The LRU caches below are given this clock (`perf`) and ask it at every look-up (`ttlResolution: 0`):
// by default they keep one reading for a millisecond, behind a timer, and use performance.now.

export interface Kept<V> {
  value: V;
  /** When the load that read it began: the database was as it says at that moment or later. */
  loadedAt: number;
}

/**
 * How much a loader keeps: a number of answers, or their total size by a measure of each; and,
 * when some answers are not to be kept at all (a page the server did not get to draw), which.
 */
export type CacheLimit<K, V> = ({ max: number } | { maxSize: number; sizeOf: (value: V) => number }) & {
  keeps?: (value: V, key: K) => boolean;
};

export interface CachedLoader<K, V> {
  get(key: K): Promise<V>;
  /** What is kept for `key` and young enough to give, without loading it. */
  peek(key: K): V | undefined;
  /**
   * For an answer read elsewhere (one read that answers several caches): call before reading, keep
   * with what it returns. A `clear()` in between makes it keep nothing, as a load's answer would not be.
   */
  keeper(): (key: K, value: V) => void;
  clear(): void;
}

/**
 * A loader that reuses each answer for at most `seconds` (the catalogue's caches, ADR 0006, and the
 * pages' HTML, ADR 0021). From half that age, an answer is still given while a load in the
 * background refreshes it, so a busy entry rarely makes anyone wait; concurrent callers share one
 * load. With 0 seconds, every call loads.
 */
export function cachedLoader<K extends string | number, V extends object>(
  seconds: number,
  limit: CacheLimit<K, V>,
  load: (key: K) => Promise<V>,
  count: CountLookup = countNothing,
  now: Clock = systemClock,
): CachedLoader<K, V> {
  if (seconds <= 0) return { get: load, peek: () => undefined, keeper: () => () => undefined, clear: () => undefined };
  const maxAge = seconds * 1000;
  const kept = new LRUCache<K, Kept<V>>(
    'max' in limit
      ? { max: limit.max, ttl: maxAge, perf: { now }, ttlResolution: 0 }
      : {
          maxSize: limit.maxSize,
          // The key counts too: an address may be as long as a request line.
          sizeCalculation: (entry, key) => Math.max(1, limit.sizeOf(entry.value) + String(key).length),
          ttl: maxAge,
          perf: { now },
          ttlResolution: 0,
        },
  );
  const keeps = limit.keeps ?? (() => true);
  const loading = new Map<K, Promise<V>>();
  // Bumped by clear(): a load begun before it may have read what the change replaced, so is not kept.
  let generation = 0;
  function keeper(): (key: K, value: V) => void {
    const startedIn = generation;
    const loadedAt = now();
    return (key, value) => {
      if (generation === startedIn && keeps(value, key)) kept.set(key, { value, loadedAt });
    };
  }
  function loadAndKeep(key: K): Promise<V> {
    const pending = loading.get(key);
    if (pending) return pending;
    const keep = keeper();
    const loaded = load(key)
      .then((value) => {
        keep(key, value);
        return value;
      })
      .finally(() => {
        if (loading.get(key) === loaded) loading.delete(key);
      });
    loading.set(key, loaded);
    return loaded;
  }
  /** A kept answer young enough to give (refreshed in the background from half its age), or undefined. */
  function peek(key: K): V | undefined {
    const entry = kept.get(key);
    const age = entry ? now() - entry.loadedAt : Infinity;
    const fresh = entry !== undefined && age < maxAge;
    count(fresh ? 1 : 0, fresh ? 0 : 1);
    if (!entry || !fresh) return undefined;
    // The next caller gets the fresh answer; a failed refresh leaves this one to age out.
    if (age >= maxAge / 2) loadAndKeep(key).catch(() => undefined);
    return entry.value;
  }
  return {
    async get(key) {
      return peek(key) ?? loadAndKeep(key);
    },
    peek,
    keeper,
    clear() {
      generation++;
      kept.clear();
      loading.clear();
    },
  };
}
