import { z } from 'zod';
import { orderStatuses } from './order-status.ts';
import { orderCodeParams } from './basket.ts';

/** Payment calls (docs/rules.md#payments). */

export const paymentProviders = ['paypal', 'opayo'] as const;

/**
 * A provider as the back office names it: stored ids ("paypal", "paypal-checkout") are not words.
 * `manual` is a refund staff made outside the shop and recorded.
 */
const providerLabels: Record<string, string> = {
  paypal: 'PayPal',
  'paypal-checkout': 'PayPal',
  'paypal-standard': 'PayPal',
  opayo: 'Opayo',
  manual: 'Recorded by hand',
};
export function providerLabel(provider: string): string {
  return providerLabels[provider] ?? provider;
}

export const paypalConfigSchema = z.object({
  url: z.string(),
  business: z.string(),
  notifyUrl: z.string(),
  returnUrl: z.string(),
  cancelUrl: z.string(),
});

/** The whole form to post to the provider, built on the server from the committed order. */
export const paymentHandoffSchema = z.object({
  url: z.string(),
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
});
export type PaymentHandoff = z.infer<typeof paymentHandoffSchema>;

/**
 * GET /api/payment-handoff/{code}, for any provider: a form the browser posts (PayPal Standard,
 * Opayo Form), or an address the browser goes to (PayPal Checkout's approve link).
 */
export const paymentHandoffAnswerSchema = z.discriminatedUnion('kind', [
  paymentHandoffSchema.extend({ kind: z.literal('form') }),
  z.object({ kind: z.literal('redirect'), url: z.string() }),
]);
export type PaymentHandoffAnswer = z.infer<typeof paymentHandoffAnswerSchema>;

export const sagepayConfigSchema = z.object({
  vendor: z.string(),
  txType: z.string(),
  vpsProtocol: z.string(),
  crypt: z.string(),
  endpointUrl: z.string(),
});
export type SagepayConfig = z.infer<typeof sagepayConfigSchema>;

export const orderStatusSchema = z.object({
  orderNumber: z.number().int(),
  status: z.enum(orderStatuses),
  provider: z.string().nullable(),
  transactionId: z.string().nullable(),
  /** The order's own page (`/order/{key}`) once it is paid; null before. */
  orderPagePath: z.string().nullable(),
  /**
   * A failed payment the shopper cancelled at the provider (Opayo's ABORT), not one it declined:
   * the confirmation says the payment was cancelled and the basket kept.
   */
  cancelledByShopper: z.boolean(),
});
export type OrderStatusAnswer = z.infer<typeof orderStatusSchema>;

export const orderNumberParams = z.object({ orderNumber: z.coerce.number().int().min(1).max(2_147_483_647) });
/**
 * The card handoff also asks for the order's code (ADR 0006): order numbers are sequential, and the
 * Crypt carries the shopper's name and addresses, so the number alone must not be enough.
 */
export const sagepayConfigQuery = z.object({ code: orderCodeParams.shape.code });
export const opayoReturnQuery = z.object({ crypt: z.string().min(2).max(20_000) });
