import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  sql,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type LogEvent,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

/** How busy the database's connections are, for the metrics (docs/decisions/0016-metrics-and-traces.md). */
export interface PoolUsage {
  /** Connections open now (SQLite: always its one connection). */
  size: number;
  /** Connections lent to a statement or transaction. */
  inUse: number;
  /** Callers waiting for a connection to be free. */
  waiting: number;
}

export interface Db {
  kysely: Kysely<Database>;
  /**
   * The money path's connections: orders and payments (commits, returns, notifications, refunds)
   * and the counters that guard them. On PostgreSQL a small pool of its own when
   * `checkoutPoolSize` is set, so a checkout never waits for a connection behind catalogue reads
   * (docs/decisions/0020-checkout-first.md); otherwise, and on SQLite's one connection, `kysely`.
   */
  checkout: Kysely<Database>;
  dialect: Dialect;
  /**
   * Whether more than one connection can work at once (PostgreSQL): a thread of its own can then
   * commit beside this process's connections. SQLite has the one.
   */
  manyConnections: boolean;
  /** Whether the database answers `select 1` within `timeoutMs` (for /readyz). */
  ping(timeoutMs: number): Promise<boolean>;
  /**
   * Brings the query planner's statistics up to date. SQLite keeps none until asked (without them
   * it once chose a status index matching three orders in four over a surname's, 200 ms instead
   * of 5); PostgreSQL's autovacuum keeps its own, so there it does nothing.
   */
  refreshStatistics(): Promise<void>;
  /** Read at each metrics scrape: cheap, no statement sent. */
  poolUsage(): PoolUsage;
  /** The same for `checkout`'s own pool; what `poolUsage` says where it has none. */
  checkoutPoolUsage(): PoolUsage;
  destroy(): Promise<void>;
  /** How to open another connection to the same database (a worker thread needs its own). */
  reopen: { url: string; pgSchema?: string; timeouts?: OpenOptions['timeouts'] };
}

/**
 * SQLite transactions start with BEGIN IMMEDIATE so a transaction takes the write lock at once:
 * a deferred one that reads first and writes later can fail with SQLITE_BUSY when another process
 * (a second instance, `npm run db:migrate`) wrote in between, and busy_timeout cannot help it.
 *
 * The one connection is lent to one statement or transaction at a time, as Kysely's own mutex for
 * single-connection dialects does, but here, so that the metrics can count who waits for it.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly usage: PoolUsage = { size: 1, inUse: 0, waiting: 0 };
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;
  readonly #onWait: OpenOptions['onConnectionWait'];

  constructor(config: ConstructorParameters<typeof SqliteDriver>[0], onWait: OpenOptions['onConnectionWait']) {
    super(config);
    this.#onWait = onWait;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const asked = this.#onWait ? performance.now() : 0;
    this.usage.waiting++;
    try {
      while (this.#held) await this.#held;
    } finally {
      this.usage.waiting--;
    }
    this.#onWait?.(performance.now() - asked, false);
    this.#held = new Promise((resolve) => (this.#release = resolve));
    this.usage.inUse = 1;
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    this.usage.inUse = 0;
    release?.();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Tells Kysely not to add its own mutex: ImmediateSqliteDriver lends the connection itself. */
class SelfLendingSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  readonly driver: ImmediateSqliteDriver;
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], onWait?: OpenOptions['onConnectionWait']) {
    super(config);
    this.#config = config;
    this.driver = new ImmediateSqliteDriver(this.#config, onWait);
  }
  override createDriver(): Driver {
    return this.driver;
  }
  override createAdapter(): DialectAdapter {
    return new SelfLendingSqliteAdapter();
  }
}

/**
 * Kysely prepares every query it runs, and better-sqlite3 compiles SQL on each prepare(): about a
 * tenth of a busy server's time. The same SQL text reuses its compiled statement instead. (Kysely
 * runs each statement to completion before the next, so one statement is never used twice at once.)
 */
function withStatementCache(sqlite: SqliteDatabase.Database, busyMs: number): SqliteDatabase.Database {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: 1000 });
  const guard = busyGuard(sqlite, busyMs);
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = guard(sqlite.prepare(source));
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * better-sqlite3 waits for another process's write lock synchronously, holding the event loop, and
 * statements queued behind a waiting one would each wait in turn (once 7 s;
 * docs/rules.md#api-answers-and-errors). So once a statement has waited its busy timeout in vain,
 * the next ones for a second fail at once (SQLITE_BUSY, answered 503) instead of waiting too; then
 * one waits again to see whether the lock is gone.
 */
function busyGuard(sqlite: SqliteDatabase.Database, busyMs: number) {
  const FAIL_FAST_MS = 1_000;
  let failFastUntil = 0;
  const run = <T>(call: () => T): T => {
    const failFast = Date.now() < failFastUntil;
    if (failFast) sqlite.pragma('busy_timeout = 0');
    try {
      return call();
    } catch (error) {
      if (String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY') && !failFast)
        failFastUntil = Date.now() + FAIL_FAST_MS;
      throw error;
    } finally {
      if (failFast) sqlite.pragma(`busy_timeout = ${busyMs}`);
    }
  };
  return (statement: SqliteDatabase.Statement): SqliteDatabase.Statement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property === 'run' || property === 'all' || property === 'get' || property === 'iterate') {
          const method = value as (...args: unknown[]) => unknown;
          return (...args: unknown[]) => run(() => method.apply(target, args));
        }
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
}

/**
 * Switches the file to WAL mode. The switch needs the database to itself and, unlike other
 * statements, fails at once with SQLITE_BUSY rather than waiting, so when two instances open a new
 * file together the second retries until the first is done (then finds WAL already set).
 */
function useWriteAheadLog(sqlite: SqliteDatabase.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      if (sqlite.pragma('journal_mode', { simple: true }) === 'wal') return;
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 100) throw error;
      Atomics.wait(pause, 0, 0, 50);
    }
  }
}

export interface OpenOptions {
  /** PostgreSQL schema to use instead of public (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL: the money path's own pool of this many connections (`Db.checkout`); unset, none. */
  checkoutPoolSize?: number;
  /**
   * How long to wait on the database before giving up (docs/rules.md#api-answers-and-errors).
   * Unset, nothing is limited but the connect (10 s) and SQLite's busy wait (10 s): migrations,
   * seeding and the CLIs may wait. The serving shop sets them all from its configuration.
   */
  timeouts?: { connectMs?: number; statementMs?: number; idleInTransactionMs?: number; busyMs?: number };
  /**
   * Told of every statement after it ran (Kysely's log): tracing gives one when it is on
   * (src/server/tracing/). Unset, Kysely does no timing or logging at all.
   */
  log?: (event: LogEvent) => void;
  /**
   * Told how long each caller waited for a connection, in ms, and whether the wait opened a new
   * one (PostgreSQL's pool opens them as needed and closes those idle for 10 s), for bench:sale's
   * commit timing (src/server/orders/commit-timing.ts). Unset, the clock is not read.
   */
  onConnectionWait?: (ms: number, opened: boolean) => void;
}

/**
 * Errors that mean the database is not answering (unreachable, hung, timed out, locked by another
 * process), as opposed to a bug: the API answers them 503, "try again shortly" (errors.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // SQLite: another process holds the write lock past the busy timeout.
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
      // PostgreSQL SQLSTATEs: connection exceptions (08), statement timeout or cancel (57014),
      // shutting down or starting (57P0x), too many connections (53300), lock timeout (55P03),
      // idle-in-transaction timeout (25P03).
      if (/^(08...|57014|57P0\d|53300|55P03|25P03)$/.test(code)) return true;
      if (/^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/.test(code))
        return true;
    }
    // node-postgres says these in words only.
    if (
      /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Connection ended unexpectedly/i.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}

/**
 * A unique key refused the row (an e-mail address already registered, say): an expected outcome
 * for the caller to name, unlike every other failure, which is a fault.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The database's address for a message, without its password. */
export function describeDatabaseUrl(databaseUrl: string): string {
  if (dialectOf(databaseUrl) === 'sqlite') return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'the configured address';
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function ping(kysely: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  try {
    await withTimeout(sql`select 1`.execute(kysely), timeoutMs);
    return true;
  } catch {
    return false;
  }
}

/**
 * A pool whose clients are thrown away, not reused, after a query that got no answer in time
 * (node-postgres' query_timeout): such a connection still waits for that answer, and every query
 * given to it after would queue behind it.
 */
function discardingTimedOutClients(pool: pg.Pool, onWait: OpenOptions['onConnectionWait']): PostgresPool {
  // The clients lent before, to tell a wait for a free one from one that opened a connection.
  const lent = onWait ? new WeakSet<pg.PoolClient>() : undefined;
  return {
    options: pool.options,
    async connect(): Promise<PostgresPoolClient> {
      const asked = onWait ? performance.now() : 0;
      const client = await pool.connect();
      if (onWait && lent) {
        onWait(performance.now() - asked, !lent.has(client));
        lent.add(client);
      }
      let broken = false;
      return {
        get processID() {
          return (client as { processID?: number }).processID;
        },
        query: ((...args: Parameters<pg.PoolClient['query']>) => {
          const result = (client.query as (...a: unknown[]) => unknown)(...args);
          // A cursor (not a promise) is returned as it is.
          if (!(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            if (error instanceof Error && /Query read timeout/.test(error.message)) broken = true;
            throw error;
          });
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(broken || destroy),
      };
    },
    end: () => pool.end(),
  };
}

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/**
 * The dialect of a handle on the shop's database (the pool, or a transaction on it), for the
 * repositories that write SQL differently on the two databases. It goes with the handle, so no
 * service names or passes it (docs/architecture.md, "two databases").
 */
export function dialectOfHandle(db: Kysely<Database>): Dialect {
  // getExecutor() is marked internal in Kysely's types, but it is how plugins reach the adapter,
  // and a transaction shares its parent's.
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** The database's name as OpenTelemetry's `db.system` attribute spells it. */
export function databaseSystemOf(databaseUrl: string): 'postgresql' | 'sqlite' {
  return dialectOf(databaseUrl) === 'postgres' ? 'postgresql' : 'sqlite';
}

export function openDatabase(databaseUrl: string, options: OpenOptions = {}): Db {
  if (dialectOf(databaseUrl) === 'sqlite') {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    // better-sqlite3's busy wait blocks the event loop: the serving shop keeps it short and
    // answers 503 when another process holds the write lock longer (docs/rules.md#api-answers-and-errors).
    const busyMs = options.timeouts?.busyMs ?? 10_000;
    const sqlite = new SqliteDatabase(path, { timeout: busyMs });
    useWriteAheadLog(sqlite);
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    const dialect = new ImmediateSqliteDialect(
      { database: withStatementCache(sqlite, busyMs) },
      options.onConnectionWait,
    );
    const kysely = new Kysely<Database>({ dialect, ...(options.log ? { log: options.log } : {}) });
    const refreshStatistics = async () => {
      // Sampled, so a large table costs tens of milliseconds, not hundreds; fewer rows than this
      // gave statistics poor enough to pick the wrong index again. 0x10002 looks at every table.
      sqlite.pragma('analysis_limit = 20000');
      sqlite.pragma('optimize = 0x10002');
    };
    const usage = () => ({ ...dialect.driver.usage });
    return {
      kysely,
      checkout: kysely,
      dialect: 'sqlite',
      manyConnections: false,
      ping: (ms) => ping(kysely, ms),
      refreshStatistics,
      poolUsage: usage,
      checkoutPoolUsage: usage,
      destroy: () => kysely.destroy(),
      reopen: { url: databaseUrl },
    };
  }
  const main = postgresPool(databaseUrl, options, options.poolSize ?? 10);
  const checkout = options.checkoutPoolSize ? postgresPool(databaseUrl, options, options.checkoutPoolSize) : main;
  return {
    kysely: main.kysely,
    checkout: checkout.kysely,
    dialect: 'postgres',
    manyConnections: true,
    ping: (ms) => ping(main.kysely, ms),
    refreshStatistics: async () => undefined,
    poolUsage: main.usage,
    checkoutPoolUsage: checkout.usage,
    destroy: async () => {
      await main.kysely.destroy();
      if (checkout !== main) await checkout.kysely.destroy();
    },
    reopen: {
      url: databaseUrl,
      ...(options.pgSchema ? { pgSchema: options.pgSchema } : {}),
      // The same waits on the database as this handle: the serving shop's limits, or none.
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    },
  };
}

function postgresPool(databaseUrl: string, options: OpenOptions, size: number) {
  const { connectMs = 10_000, statementMs, idleInTransactionMs } = options.timeouts ?? {};
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: size,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    // Both connecting and waiting for a free pooled connection (pg-pool uses it for each).
    connectionTimeoutMillis: connectMs,
    keepAlive: true,
    ...(statementMs
      ? {
          // The server cancels a statement that runs too long (waiting on a lock included)...
          statement_timeout: statementMs,
          // ...and the client gives up on a server that does not answer at all.
          query_timeout: statementMs + 1_000,
        }
      : {}),
    ...(idleInTransactionMs ? { idle_in_transaction_session_timeout: idleInTransactionMs } : {}),
  });
  // A dropped idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: discardingTimedOutClients(pool, options.onConnectionWait) }),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    kysely,
    usage: (): PoolUsage => ({
      size: pool.totalCount,
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}
