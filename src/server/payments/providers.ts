import type { PaymentProviderId } from '../config.ts';
import type { AdapterFactory, PaymentsConfig } from './payment-provider.ts';
import { paypalCheckoutProvider } from './providers/paypal-checkout/paypal-checkout.provider.ts';
import { opayoFormProvider } from './providers/opayo-form/opayo-form.provider.ts';
import { paypalStandardProvider } from './providers/paypal-standard/paypal-standard.provider.ts';

/**
 * Every payment provider the shop speaks to (a protocol adapter), one line each, keyed by the id its orders record
 * (docs/decisions/0013-payment-providers.md). A new provider is a folder under providers/ and a
 * line here, and the setting that chooses it in `startingProvider`.
 */
export const providerFactories = {
  paypal: paypalStandardProvider,
  'paypal-checkout': paypalCheckoutProvider,
  opayo: opayoFormProvider,
} satisfies Record<PaymentProviderId, AdapterFactory>;

export type ProviderId = keyof typeof providerFactories;

/** The provider that starts new handoffs, as configured (GET /api/payment-provider names its kind). */
export function startingProvider(config: PaymentsConfig): ProviderId {
  if (config.paymentProvider === 'paypal' && config.paypalIntegration === 'checkout') return 'paypal-checkout';
  return config.paymentProvider;
}
