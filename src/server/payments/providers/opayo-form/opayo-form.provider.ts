import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { penceToDecimal } from '../../../../contract/money.ts';
import {
  opayoReturnQuery,
  orderNumberParams,
  sagepayConfigQuery,
  sagepayConfigSchema,
} from '../../../../contract/payments.ts';
import { NotFoundError } from '../../../errors.ts';
import { perMinute } from '../../../http/rate-limit/per-minute.ts';
import { sameSecret } from '../../../http/same-secret.ts';
import { holdsReservation, markOrderPaid, markPaymentFailed } from '../../../orders/order-lifecycle.ts';
import { findOrderByNumber, type OrderRow } from '../../../orders/orders.repository.ts';
import { openCrypt } from '../../opayo-crypt.ts';
import {
  newVendorTxCode,
  opayoEndpoint,
  opayoRequestCrypt,
  opayoRequestFields,
  orderNumberOf,
  readOpayoResponse,
} from '../../opayo.ts';
import type { PaymentProvider, ProviderContext } from '../../payment-provider.ts';

/**
 * Opayo Form 4.00 (docs/rules.md#payments): a Crypt the browser posts, and the shopper's encrypted
 * return as the result. Form has no refund call we can make (its return lacks the security key a
 * REFUND needs: DESIGN.md 5), so refunds are made in Opayo's portal and recorded by staff.
 */
export function opayoFormProvider({ db, config, clock, events, rateLimitFactor }: ProviderContext) {
  /** The registration post's four fields for an order awaiting payment. */
  function registration(order: OrderRow) {
    const fields = opayoRequestFields(order, {
      vendorTxCode: newVendorTxCode(order.order_number),
      publicUrl: config.publicUrl,
      shopName: config.shop.name,
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
    const order = orderNumber === undefined ? undefined : await findOrderByNumber(db, orderNumber);
    if (!order) return 'rejected: names no order';
    const status = fields.Status ?? '';
    const key = `opayo:${fields.VPSTxId || fields.VendorTxCode}:${status}`;
    return events.once(
      { key, provider: 'opayo', providerStatus: status || 'none', body: JSON.stringify(fields) },
      async (trx, at) => {
        if (fields.Amount !== penceToDecimal(order.total_including_delivery))
          return { orderId: order.id, outcome: 'rejected: wrong amount' };
        const current = (await findOrderByNumber(trx, order.order_number)) as OrderRow;
        if (status === 'OK') {
          const outcome = await markOrderPaid(
            trx,
            current,
            {
              provider: 'opayo',
              providerStatus: status,
              transactionId: fields.VPSTxId ?? '',
              authCode: fields.TxAuthNo ?? null,
            },
            at,
          );
          return { orderId: order.id, outcome };
        }
        const failed = await markPaymentFailed(
          trx,
          order.id,
          { provider: 'opayo', providerStatus: status, transactionId: fields.VPSTxId ?? null },
          at,
        );
        return { orderId: order.id, outcome: failed ? 'failed' : `ignored ${status}: order is ${current.status}` };
      },
    );
  }

  const routes: FastifyPluginAsyncZod = async (app) => {
    // The spec's call: the Form post for an order awaiting payment, by number and code.
    app.get(
      '/api/sagepay-config/:orderNumber',
      {
        schema: { params: orderNumberParams, querystring: sagepayConfigQuery, response: { 200: sagepayConfigSchema } },
      },
      async (request) => {
        const order = await findOrderByNumber(db, request.params.orderNumber);
        if (!order || !sameSecret(order.order_code, request.query.code) || !holdsReservation(order, clock()))
          throw new NotFoundError('No order awaiting payment has that number');
        return registration(order);
      },
    );

    // One answer for every Crypt, read or not, ours or not (see handleReturn), and a limit per
    // client: a shopper comes back once or twice; an attacker needs thousands of tries.
    app.get(
      '/api/payments/opayo/return',
      { ...perMinute(20, rateLimitFactor), schema: { querystring: opayoReturnQuery } },
      async (request, reply) => {
        const outcome = await handleReturn(request.query.crypt);
        request.log.info({ outcome }, 'Opayo return');
        return reply.redirect('/checkout-confirm', 303);
      },
    );
  };

  return {
    id: 'opayo',
    async handoff(order) {
      const post = registration(order);
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
  } satisfies PaymentProvider;
}
