/**
 * A payment's transaction id as the shop shows it: Opayo's VPSTxId comes wrapped in braces
 * ("{7E3B...}"), which read as markup, not as part of the id (issue 32, item 10). The id is stored as
 * the provider gave it, since a refund must quote it so; only what people read leaves them off.
 */
export function shownTransactionId(id: string): string {
  return id.replace(/^\{(.*)\}$/, '$1');
}
