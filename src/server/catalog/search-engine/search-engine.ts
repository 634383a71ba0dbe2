import { buildIndexData, buildIndexDataInProcess, toIndexed, type BuildConnection } from './index-build.ts';
import { ProductIndex, type IndexAnswer, type IndexQuery } from './product-index.ts';
import type { SearchEngineRepository } from './search-engine.repository.ts';

/**
 * Keeps this instance's search index (product-index.ts) in step with the database
 * (docs/decisions/0017-in-process-search-index.md): built at start (in a child process for a large catalogue: index-build.ts), then changed product by product from the change log (migration 0020), which a
 * search reads first when it was last read more than `maxLagMs` ago, or after this instance
 * changed the catalogue (`markStale`). Past `rebuildAfter` changed products a fresh index is built
 * in the background and swapped in.
 */

export interface SearchEngineOptions {
  /** A search reads the change log first when it was read longer ago than this; 0 reads it every time. */
  maxLagMs: number;
  /**
   * How long a search waits for the first build before it is refused (`search` answers undefined):
   * every search is answered from the index (docs/decisions/0026-one-search-engine.md). 60 s by default.
   */
  firstBuildWaitMs?: number;
  /** Changed products kept beside the index before a fresh one is built. */
  rebuildAfter?: number;
  onError?: (error: unknown) => void;
  /** Build in a child process with this connection once the catalogue has `fromProducts` products (index-build.ts). */
  separateBuild?: { connection: BuildConnection; fromProducts?: number };
}

/** Log rows read per query while catching up. */
const CHANGES_PAGE = 2_000;
/** A change id not seen yet (its transaction had not committed) is looked for again this long. */
const MISSING_FOR_MS = 60_000;
/** How far back a fresh build looks for change ids taken but not committed yet. */
const MISSING_LOOKBACK = 1_000;
/** A catalogue this large is built in a child process; a small one (tests, a new shop) here. */
const SEPARATE_BUILD_FROM_PRODUCTS = 5_000;
/** Log rows kept behind the newest build, for instances that read the log less often. */
const KEEP_CHANGES = 100_000;
/**
 * A build at 100,000 products took 2 to 4 s on a quiet 2-core machine (ADR 0017); on a busy one
 * 12 to 14 s on SQLite and up to 34 s on PostgreSQL (ADR 0026): a search at start-up waits for it,
 * and is refused only when the build has failed or hung. /readyz answers 503 meanwhile, so a load
 * balancer sends such an instance none.
 */
const FIRST_BUILD_WAIT_MS = 60_000;

export function createSearchEngine(repository: SearchEngineRepository, options: SearchEngineOptions) {
  const rebuildAfter = options.rebuildAfter ?? 1_000;
  const firstBuildWaitMs = options.firstBuildWaitMs ?? FIRST_BUILD_WAIT_MS;
  let index: ProductIndex | undefined;
  /** The newest change the index has; `missing` holds ids below it not seen yet, with when they were first missed. */
  let cursor = 0;
  let missing = new Map<number, number>();
  let lastRead = 0;
  /** Bumped by markStale: a catch-up begun before it may have missed the change. */
  let staleSince = 0;
  let caughtUpTo = 0;
  /** Bumped when a fresh index is swapped in, so a catch-up begun on the old one stops. */
  let generation = 0;
  let building: Promise<void> | undefined;
  let catchingUp: Promise<void> | undefined;
  let stopped = false;

  /** Reads the published catalogue in slices and swaps the fresh index in. */
  async function build(): Promise<void> {
    const from = await repository.lastChange();
    const present = new Set(await repository.changeIdsBetween(from - MISSING_LOOKBACK, from));
    const separate = options.separateBuild;
    const inChild =
      separate !== undefined &&
      (await repository.publishedCount()) >= (separate.fromProducts ?? SEPARATE_BUILD_FROM_PRODUCTS);
    const data = inChild
      ? await buildIndexDataInProcess(separate.connection).catch((error: unknown) => {
          // The server can still build it itself, at the cost the child was to spare it.
          options.onError?.(error);
          return buildIndexData(repository);
        })
      : await buildIndexData(repository);
    if (!data || stopped) return;
    const fresh = new ProductIndex(data);
    // Wait for a catch-up on the old index to end before swapping.
    await catchingUp?.catch(() => undefined);
    const now = Date.now();
    missing = new Map();
    for (let id = Math.max(1, from - MISSING_LOOKBACK + 1); id <= from; id++)
      if (!present.has(id)) missing.set(id, now);
    index = fresh;
    cursor = from;
    generation++;
    // Whatever changed while it was built is read at the next search.
    lastRead = 0;
    if (from > KEEP_CHANGES) await repository.pruneChanges(from - KEEP_CHANGES);
  }

  function startBuild(): Promise<void> {
    building ??= build()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => (building = undefined));
    return building;
  }

  /** Reads the log from the cursor and applies each changed product's state now. */
  async function catchUp(): Promise<void> {
    const startedIn = generation;
    const readAt = Date.now();
    const oldest = await repository.firstChange();
    if (oldest > cursor + 1 && generation === startedIn) {
      // Pruned past this index's place in the log: only a fresh build can be trusted.
      await startBuild();
      return;
    }
    for (;;) {
      const rows = await repository.changesSince(cursor, [...missing.keys()], CHANGES_PAGE);
      if (generation !== startedIn || !index) return;
      const changed = new Set<number>();
      for (const row of rows) {
        changed.add(row.product_id);
        missing.delete(row.id);
        if (row.id > cursor) {
          for (let id = Math.max(cursor + 1, row.id - MISSING_LOOKBACK); id < row.id; id++) missing.set(id, readAt);
          cursor = row.id;
        }
      }
      const current = new Map((await repository.products([...changed])).map((row) => [row.id, row]));
      if (generation !== startedIn) return;
      for (const id of changed) {
        const row = current.get(id);
        if (row?.status === 'published') index.upsert(toIndexed(row));
        else index.remove(id);
      }
      if (rows.length < CHANGES_PAGE) break;
    }
    for (const [id, since] of missing) if (readAt - since > MISSING_FOR_MS) missing.delete(id);
    lastRead = readAt;
    if (index.overlaySize >= rebuildAfter) void startBuild();
  }

  function catchUpOnce(): Promise<void> {
    catchingUp ??= (async () => {
      const marked = staleSince;
      try {
        await catchUp();
        caughtUpTo = Math.max(caughtUpTo, marked);
      } finally {
        catchingUp = undefined;
      }
    })();
    return catchingUp;
  }

  /** Resolves when the first build ends or `ms` have passed, whichever is sooner. */
  function firstBuildOrTimeout(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    return Promise.race([startBuild(), timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * The index as it is now, after reading the change log when due; undefined when the first build
   * has not ended within `firstBuildWaitMs` (failed, or far slower than it should be).
   */
  async function current(): Promise<ProductIndex | undefined> {
    if (!index) {
      await firstBuildOrTimeout(firstBuildWaitMs);
      if (!index) return undefined;
    }
    // Once if the log was read too long ago; again while a change marked during a catch-up that
    // was already reading may have been missed.
    for (let round = 0; round < 3; round++) {
      const behind = round === 0 && Date.now() - lastRead >= options.maxLagMs;
      if (!behind && caughtUpTo >= staleSince) break;
      await catchUpOnce();
    }
    return index;
  }

  return {
    /** Begins the first build; searches meanwhile wait for it (up to `firstBuildWaitMs`). */
    start(): void {
      void startBuild();
    },

    stop(): void {
      stopped = true;
    },

    /** Whether the first build has ended, waiting for it up to `waitMs` (for /readyz). */
    async built(waitMs: number): Promise<boolean> {
      if (!index) await firstBuildOrTimeout(waitMs);
      return index !== undefined;
    },

    /** This instance changed the catalogue: its next search reads the log first, so it shows the change. */
    markStale(): void {
      staleSince++;
    },

    /** The answer from the index, or undefined when its first build has not ended in time. */
    async search(query: IndexQuery): Promise<IndexAnswer | undefined> {
      return (await current())?.search(query);
    },

    /**
     * Every published product the keyword finds, ids ascending (the back office's stock page), or
     * undefined when the first build has not ended in time.
     */
    async matchingIds(keyword: string): Promise<Int32Array | undefined> {
      return (await current())?.matchingIds(keyword);
    },
  };
}

export type SearchEngine = ReturnType<typeof createSearchEngine>;
