import { createHash } from 'node:crypto';
import { decimalToPence, penceToDecimal } from '../../../../contract/money.ts';
import {
  opayoReturnQuery,
  orderNumberParams,
  sagepayConfigQuery,
  sagepayConfigSchema,
} from '../../../../contract/payments.ts';
import type { PaymentOrder } from '../../../orders/order-payments.ts';
import { openCrypt } from '../../opayo-crypt.ts';
import {
  newVendorTxCode,
  opayoEndpoint,
  opayoRequestCrypt,
  opayoRequestFields,
  opayoText,
  orderNumberOf,
  readOpayoResponse,
  VPS_TX_ID,
} from '../../opayo.ts';
import {
  outcomeText,
  type AdapterContext,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderRefundRequest,
  type ProviderRefundResult,
  type ProviderRoute,
} from '../../payment-provider.ts';
import {
  bareVpsTxId,
  OpayoUnreachable,
  opayoAdminClient,
  REPORTING_NO_SUCH_TRANSACTION,
  type OpayoAdminClient,
} from './opayo-admin-api.ts';
import { apiErrorSchema } from '../../../../contract/errors.ts';

/**
 * A refund attempt's VendorTxCode, made from the request id that is written, with the reserved
 * amount, before Opayo is asked (refund_requests). So the code is fixed before the call: a call
 * that gets no answer is followed by a look-up of that very code in the Reporting API, which tells
 * whether the refund was made (recorded, once) or not (the reservation given back); Opayo never
 * takes one VendorTxCode twice; and staff trying again make a new request with a new code, while
 * an earlier attempt left unsettled keeps its amount reserved, so together they never pass what was
 * paid. The shop never resends an attempt that may have gone through. Hashed, as the request id is
 * longer than Opayo's 40 characters; RAAG-R never reads as a payment's code (orderNumberOf).
 */
export function refundVendorTxCode(orderNumber: number, requestId: string): string {
  return `RAAG-R${orderNumber}-${createHash('sha256').update(requestId).digest('hex').slice(0, 24)}`;
}

/**
 * Opayo Form 4.00 (docs/rules.md#payments): a Crypt the browser posts, and the shopper's encrypted
 * return as the result. Its return lacks the security key a REFUND needs: with a
 * Reporting API user configured, a refund looks the key up and sends Opayo's REFUND (ADR 0014);
 * without one, refunds are made in Opayo's portal and recorded by staff.
 */
export function opayoFormProvider({ config, shopName, fetch, payments }: AdapterContext) {
  const admin = config.opayo.admin
    ? opayoAdminClient({
        mode: config.opayo.mode,
        publicUrl: config.publicUrl,
        vendor: config.opayo.vendor,
        user: config.opayo.admin.user,
        password: config.opayo.admin.password,
        fetch,
      })
    : undefined;
  /** The registration post's four fields for an order awaiting payment. */
  async function registration(order: PaymentOrder) {
    const fields = opayoRequestFields(order, {
      vendorTxCode: newVendorTxCode(order.order_number),
      publicUrl: config.publicUrl,
      shopName: await shopName(),
    });
    return {
      vendor: config.opayo.vendor,
      txType: 'PAYMENT',
      vpsProtocol: '4.00',
      crypt: opayoRequestCrypt(fields, config.opayo.encryptionPassword),
      endpointUrl: opayoEndpoint(config.opayo.mode, config.publicUrl),
    };
  }

  /**
   * The fields of a return's Crypt, or undefined for one that does not decrypt or read strictly.
   * The text is read whether or not its padding was right, so both take the same steps (ADR 0008).
   */
  function readOpayoReturn(crypt: string): Record<string, string> | undefined {
    const { text, paddingValid } = openCrypt(crypt, config.opayo.encryptionPassword);
    const fields = readOpayoResponse(text);
    return paddingValid ? fields : undefined;
  }

  /**
   * The shopper's return from Opayo (SuccessURL or FailureURL). There is no server-to-server
   * call, so this return is the result, and must be idempotent. Answers what became of it, for
   * the log only: the shopper (or anyone else) gets the same answer whatever the Crypt held,
   * since a different answer for a Crypt that does not decrypt is a padding oracle that gives
   * away the encryption password (docs/decisions/0008-opayo-return-crypt.md).
   */
  async function handleReturn(crypt: string): Promise<string> {
    const fields = readOpayoReturn(crypt);
    if (!fields) return 'rejected: unreadable';
    const orderNumber = orderNumberOf(fields.VendorTxCode ?? '');
    if (orderNumber === undefined || !(await payments.knowsOrder(orderNumber))) return 'rejected: names no order';
    const status = fields.Status ?? '';
    const pence = decimalToPence(fields.Amount);
    const received = {
      key: `opayo:${fields.VPSTxId || fields.VendorTxCode}:${status}`,
      providerStatus: status,
      body: JSON.stringify(fields),
    };
    // Opayo's figure as it wrote it (the registration's own format); the currency is the one we
    // registered, which the return does not repeat.
    const money = {
      orderNumber,
      amount: pence !== undefined && penceToDecimal(pence) === fields.Amount ? pence : undefined,
      currency: 'GBP',
    };
    const event: ProviderEvent =
      status === 'OK'
        ? {
            ...received,
            ...money,
            type: 'captured',
            reference: fields.VPSTxId ?? '',
            authCode: fields.TxAuthNo ?? null,
          }
        : // The shopper's Cancel on Opayo's payment page comes back as ABORT (Opayo Form 4.00).
          {
            ...received,
            ...money,
            type: status === 'ABORT' ? 'cancelled' : 'failed',
            reference: fields.VPSTxId ?? null,
          };
    return outcomeText(await payments.apply(event));
  }

  /** A refund Opayo made for a request of ours, as the event that records it (once) and settles the request. */
  function opayoRefund(
    order: PaymentOrder,
    request: { amount: number; requestId: string },
    vpsTxId: string,
    source: string,
  ): ProviderRefundResult {
    return {
      outcome: 'refunded',
      event: {
        type: 'refunded',
        key: `opayo:refund:${vpsTxId}`,
        providerStatus: 'OK',
        body: JSON.stringify({ source, vpsTxId, amount: request.amount, requestId: request.requestId }),
        orderNumber: order.order_number,
        amount: request.amount,
        currency: 'GBP',
        reference: vpsTxId,
        paymentReference: order.transaction_id ?? '',
        requestId: request.requestId,
      },
    };
  }

  /**
   * A staff refund through Opayo's REFUND (docs/decisions/0014-opayo-refunds.md). The Form return
   * gives no security key, so the payment is looked up in the Reporting API each time (it also
   * gives the payment's VendorTxCode and TxAuthNo, which the shop does not keep, and keeps the key
   * out of our database). `refused` gives the reserved amount back, so it is answered only when no
   * refund can have been made.
   */
  async function refundThroughOpayo(
    client: OpayoAdminClient,
    { order, amount, requestId, note }: ProviderRefundRequest,
  ): Promise<ProviderRefundResult> {
    const paymentId = order.transaction_id ?? '';
    if (!VPS_TX_ID.test(paymentId)) return { outcome: 'refused', reason: 'the order has no Opayo transaction' };
    let payment: Record<string, string>;
    try {
      payment = await client.transactionDetail({ vpstxid: paymentId });
    } catch (error) {
      if (!(error instanceof OpayoUnreachable)) throw error;
      return { outcome: 'refused', reason: `Opayo's Reporting API did not answer; nothing was sent` };
    }
    if (payment.errorcode !== '0000')
      return { outcome: 'refused', reason: `Reporting API ${payment.errorcode}: ${payment.error ?? ''}`.trim() };
    if (
      bareVpsTxId(payment.vpstxid ?? '') !== bareVpsTxId(paymentId) ||
      orderNumberOf(payment.vendortxcode ?? '') !== order.order_number ||
      !payment.securitykey
    )
      return { outcome: 'refused', reason: 'Opayo describes a different payment for this order' };

    const vendorTxCode = refundVendorTxCode(order.order_number, requestId);
    let answer: Record<string, string> | undefined;
    const name = await shopName();
    try {
      answer = await client.refund([
        ['VPSProtocol', '4.00'],
        ['TxType', 'REFUND'],
        ['Vendor', config.opayo.vendor],
        ['VendorTxCode', vendorTxCode],
        ['Amount', penceToDecimal(amount)],
        ['Currency', 'GBP'],
        ['Description', opayoText(`${name} order ${order.order_number} refund: ${note}`, 100)],
        ['RelatedVPSTxId', paymentId],
        ['RelatedVendorTxCode', payment.vendortxcode ?? ''],
        ['RelatedSecurityKey', payment.securitykey],
        ['RelatedTxAuthNo', payment.vpsauthcode ?? ''],
      ]);
    } catch (error) {
      if (!(error instanceof OpayoUnreachable)) throw error;
    }
    if (answer?.Status === 'OK' && VPS_TX_ID.test(answer.VPSTxId ?? ''))
      return opayoRefund(order, { amount, requestId }, answer.VPSTxId as string, 'refund answer');
    if (answer?.Status && answer.Status !== 'OK')
      return { outcome: 'refused', reason: `${answer.Status}: ${answer.StatusDetail ?? ''}`.trim() };

    // No answer that reads: ask Opayo whether this attempt's refund exists (see refundVendorTxCode).
    return lookUpRefund(client, { order, amount, requestId });
  }

  /**
   * Whether Opayo made the refund of this request (its VendorTxCode, see refundVendorTxCode): then
   * it is recorded, once; `refused` only when Opayo says it has no such refund.
   */
  async function lookUpRefund(
    client: OpayoAdminClient,
    { order, amount, requestId }: Pick<ProviderRefundRequest, 'order' | 'amount' | 'requestId'>,
  ): Promise<ProviderRefundResult> {
    const vendorTxCode = refundVendorTxCode(order.order_number, requestId);
    let made: Record<string, string>;
    try {
      made = await client.transactionDetail({ vendortxcode: vendorTxCode });
    } catch (error) {
      if (!(error instanceof OpayoUnreachable)) throw error;
      return { outcome: 'unknown', reason: `Opayo answered neither the refund nor the look-up of ${vendorTxCode}` };
    }
    // Only "no such transaction" means no refund was made. Any other refusal of the look-up (a
    // changed password, a signature, a busy service) says nothing of the refund: the amount stays
    // reserved and the sweep asks again, rather than free it for a second refund (ADR 0014).
    if (made.errorcode === REPORTING_NO_SUCH_TRANSACTION)
      return {
        outcome: 'refused',
        reason: `Opayo did not answer; its Reporting API has no refund ${vendorTxCode} (${made.errorcode}: ${made.error ?? ''})`,
      };
    if (made.errorcode !== '0000')
      return {
        outcome: 'unknown',
        reason: `Opayo answered neither the refund nor the look-up of ${vendorTxCode} (${made.errorcode}: ${made.error ?? ''})`,
      };
    const vpsTxId = `{${bareVpsTxId(made.vpstxid ?? '')}}`;
    if (
      !VPS_TX_ID.test(vpsTxId) ||
      (made.transactiontype ?? '').toLowerCase() !== 'refund' ||
      made.amount !== penceToDecimal(amount)
    )
      return { outcome: 'unknown', reason: `Opayo holds ${vendorTxCode}, but not as this refund` };
    return opayoRefund(order, { amount, requestId }, vpsTxId, 'reporting look-up');
  }

  const routes: ProviderRoute[] = [
    {
      // The spec's call: the Form post for an order awaiting payment, by number and code.
      method: 'GET',
      url: '/api/sagepay-config/:orderNumber',
      schema: {
        params: orderNumberParams,
        querystring: sagepayConfigQuery,
        response: { 200: sagepayConfigSchema, 409: apiErrorSchema },
      },
      async handle(request) {
        const { orderNumber } = request.params as { orderNumber: number };
        const { code } = request.query as { code: string };
        const { order } = await payments.awaitingPayment({ orderNumber, code });
        return { kind: 'json', body: await registration(order) };
      },
    },
    {
      // One answer for every Crypt, read or not, ours or not (see handleReturn), and a limit per
      // client: a shopper comes back once or twice; an attacker needs thousands of tries.
      method: 'GET',
      url: '/api/payments/opayo/return',
      perMinute: 20,
      schema: { querystring: opayoReturnQuery },
      async handle(request) {
        const outcome = await handleReturn((request.query as { crypt: string }).crypt);
        request.log.info({ outcome }, 'Opayo return');
        return { kind: 'redirect', to: '/checkout-confirm' };
      },
    },
  ];

  return {
    id: 'opayo',
    // The shopper's Cancel on Opayo's payment page comes back as ABORT (Opayo Form 4.00).
    cancelledByShopper: (providerStatus: string) => providerStatus === 'ABORT',
    async handoff(order) {
      const post = await registration(order);
      return {
        kind: 'form',
        url: post.endpointUrl,
        fields: [
          { name: 'VPSProtocol', value: post.vpsProtocol },
          { name: 'TxType', value: post.txType },
          { name: 'Vendor', value: post.vendor },
          { name: 'Crypt', value: post.crypt },
        ],
      };
    },
    routes,
    // Refunds through Opayo only with a Reporting API user to read the payment's security key;
    // without one, staff refund in Opayo's portal and record it (docs/rules.md#payments).
    ...(admin
      ? {
          refund: (request: ProviderRefundRequest) => refundThroughOpayo(admin, request),
          canRefund: (order: Pick<PaymentOrder, 'transaction_id'>) => VPS_TX_ID.test(order.transaction_id ?? ''),
          // Opayo sends no notice of a refund: one it never confirmed is looked up again.
          settleRefund: (request: ProviderRefundRequest) => lookUpRefund(admin, request),
        }
      : {}),
  } satisfies PaymentProvider;
}
