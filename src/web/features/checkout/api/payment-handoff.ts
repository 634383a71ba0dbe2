import type { PaymentHandoff, SagepayConfig } from '../../../../contract/payments.ts';
import { requestJson } from '../../../lib/api.ts';

/** What is posted where: the provider's address and the fields the server built from the order. */
export async function loadHandoff(orderCode: string, orderNumber: number): Promise<PaymentHandoff> {
  const response = await fetch('/api/payment-provider');
  const provider = (await response.text()).trim();
  if (provider === 'opayo') {
    const config = await requestJson<SagepayConfig>(
      `/api/sagepay-config/${orderNumber}?code=${encodeURIComponent(orderCode)}`,
    );
    return {
      url: config.endpointUrl,
      fields: [
        { name: 'VPSProtocol', value: config.vpsProtocol },
        { name: 'TxType', value: config.txType },
        { name: 'Vendor', value: config.vendor },
        { name: 'Crypt', value: config.crypt },
      ],
    };
  }
  return requestJson<PaymentHandoff>(`/api/paypal-handoff/${encodeURIComponent(orderCode)}`);
}
