/**
 * What the test suites set where a serving shop's defaults do not suit them (config.ts has no
 * defaults of its own for tests): caches off, so a change is seen by the next call; the sweeps on timers off, each
 * test running the one it needs at its moment; the unpaid-order limits far out of the way of suites
 * that place many orders from one address (their own test sets the real ones); and quiet logs.
 */
export const testEnvironment = {
  NODE_ENV: 'test',
  SEARCH_CACHE_SECONDS: '0',
  CATALOG_CACHE_SECONDS: '0',
  PAGE_CACHE_SECONDS: '0',
  SEARCH_INDEX_LAG_MS: '0',
  BACKGROUND_JOBS: 'false',
  UNPAID_ORDERS_PER_EMAIL: '100000',
  UNPAID_ORDERS_PER_CLIENT: '100000',
  UNPAID_UNITS_PER_EMAIL: '1000000',
  UNPAID_UNITS_PER_CLIENT: '1000000',
  LOG_LEVEL: 'silent',
} as const;
