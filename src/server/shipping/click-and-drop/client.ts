import { z } from 'zod';
import { penceToDecimal } from '../../../contract/money.ts';
import {
  CarrierRefusedError,
  CarrierUnavailableError,
  type LabelCarrier,
  type LabelRequest,
  type LabelResult,
} from '../label-carrier.ts';
import {
  createOrdersResponseSchema,
  deleteOrdersResourceSchema,
  errorResponseSchema,
  orderErrorInfoSchema,
  orderErrorResponseSchema,
  getOrdersResponseSchema,
  orderIdentifiersOf,
  type CreateOrderRequest,
} from './api-types.ts';

/**
 * Royal Mail Click & Drop's API as the shop's label carrier (docs/back-office.md#shipping-labels,
 * docs/decisions/0028-click-and-drop-unclear-points.md). Calls are paced to `callsPerSecond`, and
 * a 429 is waited out for as long as its Retry-After says, a few times, so a batch of sixty orders
 * goes through at the pace Click & Drop allows. The clock and the wait are injected: tests move
 * time instead of waiting for it.
 */
export interface ClickAndDropOptions {
  /** `https://api.parcel.royalmail.com/api/v1`, or the local sandbox's. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  callsPerSecond?: number;
  /** Orders in one create call (at most Click & Drop's 100). */
  batchSize?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** How long one call may take before it counts as unanswered. */
  timeoutMs?: number;
}

/** A 400's order errors, as a lookup and the label call (OrderErrorResponse) or a cancel (OrderErrorInfo) give them. */
const orderErrorsSchema = z.array(z.union([orderErrorResponseSchema, orderErrorInfoSchema]));

/** 429s waited out in a row before the call is given up. */
const MAX_WAITS = 5;
/** The longest Retry-After waited for; longer, the call is given up with Click & Drop's words. */
const MAX_WAIT_SECONDS = 30;

export function createClickAndDropClient(options: ClickAndDropOptions): LabelCarrier {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const gap = 1000 / (options.callsPerSecond ?? 2);
  const batchSize = Math.min(options.batchSize ?? 50, 100);
  let nextCallAt = 0;
  // One call at a time, in order: the pace holds for calls made at once too.
  let queue: Promise<unknown> = Promise.resolve();

  async function paced<T>(work: () => Promise<T>): Promise<T> {
    const turn = queue.then(async () => {
      const wait = nextCallAt - now();
      if (wait > 0) await sleep(wait);
      nextCallAt = Math.max(now(), nextCallAt) + gap;
      return work();
    });
    queue = turn.catch(() => undefined);
    return turn;
  }

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
    for (let waits = 0; ; waits++) {
      let answer: Response;
      try {
        answer = await paced(() =>
          doFetch(`${options.baseUrl}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${options.apiKey}`,
              accept: 'application/json, application/pdf',
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
          }),
        );
      } catch (error) {
        throw new CarrierUnavailableError(`Click & Drop did not answer: ${(error as Error).message}`);
      }
      if (answer.status !== 429) return answer;
      const seconds = Number(answer.headers.get('retry-after') ?? '1');
      if (waits >= MAX_WAITS || !(seconds >= 0) || seconds > MAX_WAIT_SECONDS)
        throw new CarrierRefusedError(await messageOf(answer), 429);
      await sleep(seconds * 1000);
    }
  }

  /** Click & Drop's own words from an error answer. */
  /**
   * Click & Drop's own words from an error answer: an ErrorResponse (a create call, a 500), or the
   * array of order errors a lookup, a label call or a cancel answers its 400 with.
   */
  async function messageOf(answer: Response): Promise<string> {
    const text = await answer.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const single = errorResponseSchema.safeParse(body);
    if (single.success)
      return single.data.details ? `${single.data.message} (${single.data.details})` : single.data.message;
    const many = orderErrorsSchema.safeParse(body);
    const words = many.success ? many.data.flatMap((error) => (error.message ? [error.message] : [])) : [];
    if (words.length > 0) return words.join(' ');
    if (answer.status === 401) return 'Click & Drop refused the API key (401): check CLICK_AND_DROP_API_KEY.';
    return `Click & Drop answered ${answer.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  }

  async function json(answer: Response): Promise<unknown> {
    if (answer.status >= 500) throw new CarrierUnavailableError(await messageOf(answer));
    if (!answer.ok) throw new CarrierRefusedError(await messageOf(answer), answer.status);
    try {
      return await answer.json();
    } catch {
      throw new CarrierUnavailableError('Click & Drop answered something that is not JSON');
    }
  }

  function requestOf(order: LabelRequest): CreateOrderRequest {
    const { recipient } = order;
    const optional = (value: string) => (value.trim() === '' ? undefined : value);
    return {
      orderReference: order.reference,
      recipient: {
        address: {
          fullName: recipient.fullName,
          addressLine1: recipient.addressLine1,
          ...(optional(recipient.addressLine2) ? { addressLine2: recipient.addressLine2 } : {}),
          ...(optional(recipient.addressLine3) ? { addressLine3: recipient.addressLine3 } : {}),
          city: recipient.city,
          postcode: recipient.postcode,
          countryCode: recipient.countryCode,
        },
        ...(optional(recipient.phoneNumber) ? { phoneNumber: recipient.phoneNumber } : {}),
        emailAddress: recipient.emailAddress,
      },
      packages: [
        {
          weightInGrams: order.weightGrams,
          packageFormatIdentifier: order.packageFormat as 'parcel',
          ...(order.dimensions
            ? {
                dimensions: {
                  heightInMms: order.dimensions.heightMm,
                  widthInMms: order.dimensions.widthMm,
                  depthInMms: order.dimensions.lengthMm,
                },
              }
            : {}),
          contents: order.contents.map((item) => ({
            name: item.name,
            SKU: item.sku,
            quantity: item.quantity,
            unitValue: Number(penceToDecimal(item.unitValue)),
            unitWeightInGrams: item.unitWeightGrams,
          })),
        },
      ],
      orderDate: order.orderDate,
      subtotal: Number(penceToDecimal(order.subtotal)),
      shippingCostCharged: Number(penceToDecimal(order.shippingCostCharged)),
      total: Number(penceToDecimal(order.total)),
      currencyCode: 'GBP',
      postageDetails: {
        sendNotificationsTo: 'recipient',
        serviceCode: order.serviceCode,
        receiveEmailNotification: false,
      },
    };
  }

  return {
    async create(requests) {
      const results: LabelResult[] = [];
      for (let start = 0; start < requests.length; start += batchSize) {
        const batch = requests.slice(start, start + batchSize);
        const answer = createOrdersResponseSchema.parse(
          await json(await call('POST', '/orders', { items: batch.map(requestOf) })),
        );
        const answered = new Set<string>();
        for (const made of answer.createdOrders ?? []) {
          if (!made.orderReference) continue;
          answered.add(made.orderReference);
          results.push({
            reference: made.orderReference,
            made: { carrierOrderId: made.orderIdentifier, trackingNumber: made.trackingNumber ?? null },
          });
        }
        for (const failed of answer.failedOrders ?? []) {
          const reference = failed.order?.orderReference;
          if (!reference) continue;
          answered.add(reference);
          const words = (failed.errors ?? []).map((error) => error.errorMessage).filter(Boolean);
          results.push({
            reference,
            refused: words.join(' ') || 'Click & Drop refused this order without saying why.',
          });
        }
        // An order neither made nor refused: nothing is known of it, so it is looked for next time.
      }
      return results;
    },

    async find(references) {
      if (references.length === 0) return [];
      const answer = await call('GET', `/orders/${orderIdentifiersOf(references.map((reference) => ({ reference })))}`);
      if (answer.status === 404) return [];
      const orders = getOrdersResponseSchema.parse(await json(answer));
      return orders.flatMap((order) =>
        order.orderReference
          ? [
              {
                reference: order.orderReference,
                carrierOrderId: order.orderIdentifier,
                trackingNumber: order.trackingNumber ?? null,
              },
            ]
          : [],
      );
    },

    async labels(carrierOrderIds) {
      const answer = await call(
        'GET',
        `/orders/${orderIdentifiersOf(carrierOrderIds)}/label?documentType=postageLabel&includeReturnsLabel=false`,
      );
      if (answer.status >= 500) throw new CarrierUnavailableError(await messageOf(answer));
      if (!answer.ok) throw new CarrierRefusedError(await messageOf(answer), answer.status);
      const bytes = Buffer.from(await answer.arrayBuffer());
      if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-')))
        throw new CarrierUnavailableError('Click & Drop answered the label call with something that is not a PDF');
      return bytes;
    },

    async cancel(carrierOrderIds) {
      const answer = deleteOrdersResourceSchema.parse(
        await json(await call('DELETE', `/orders/${orderIdentifiersOf(carrierOrderIds)}`)),
      );
      return (answer.errors ?? []).flatMap((error) =>
        error.orderIdentifier === undefined
          ? []
          : [{ carrierOrderId: error.orderIdentifier, message: error.message ?? 'Click & Drop would not cancel it.' }],
      );
    },
  };
}
