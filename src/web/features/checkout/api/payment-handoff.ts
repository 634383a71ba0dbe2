import type { PaymentHandoffAnswer } from '../../../../contract/payments.ts';
import { requestJson } from '../../../lib/api.ts';

/** Where the browser goes to pay: a form to post, or an address, built by the server from the order. */
export function loadHandoff(orderCode: string): Promise<PaymentHandoffAnswer> {
  return requestJson<PaymentHandoffAnswer>(`/api/payment-handoff/${encodeURIComponent(orderCode)}`);
}
