/**
 * Per-route limits (docs/rules.md#limits-on-one-client): at most `max` requests a minute from one address.
 * RATE_LIMIT_FACTOR scales every limit, for a browser test run whose shoppers share one address.
 */
export function perMinute(max: number, factor: number) {
  return { config: { rateLimit: { max: Math.max(1, Math.round(max * factor)), timeWindow: '1 minute' } } };
}
