import { fileURLToPath } from 'node:url';
import bwipjs from 'bwip-js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import PDFDocument from 'pdfkit';
import type { z } from 'zod';
import { sameSecret } from '../../http/same-secret.ts';
import {
  createOrderErrorResponseSchema,
  createOrdersRequestSchema,
  type CreateOrderRequest,
  type CreateOrdersResponse,
  type ErrorResponse,
} from './api-types.ts';

/**
 * A local stand-in for Royal Mail Click & Drop's API (issue 38; docs/decisions/0028-click-and-drop-unclear-points.md),
 * served under /sandbox/click-and-drop/api/v1 outside production, as the payment sandboxes are: the
 * same paths, `Authorization: Bearer {key}`, request and answer shapes, error bodies and a rate
 * limit (429 with Retry-After), and label PDFs with the address and a tracking number. Its orders
 * live in this process's memory: a restart starts afresh. What it refuses, for tests and the demo:
 *
 * - a UK address whose postcode is not a postcode, or starts "ZZ" (a failed order, with Click &
 *   Drop's kind of message, the others in the batch made);
 * - a service code the account does not have (the codes in contract/admin/shipping.ts are its
 *   services).
 */

/**
 * Orders the sandbox keeps: past it the oldest is forgotten, so a demo open to anyone cannot be
 * made to hold orders without end (its key is no secret there).
 */
export const SANDBOX_MAX_ORDERS = 10_000;

/** Calls one key may make in a second; past it, 429 until the second is over. */
export const SANDBOX_CALLS_PER_SECOND = 3;

/** The services the sandbox account has. */
const ACCOUNT_SERVICES = new Set(['TOLP24', 'TOLP48', 'OLP1', 'OLP2', 'SD1OLP', 'PFE24']);
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i;

interface SandboxOrder {
  orderIdentifier: number;
  orderReference: string | undefined;
  createdOn: string;
  orderDate: string;
  printedOn?: string;
  trackingNumber: string;
  request: CreateOrderRequest;
}

export interface ClickAndDropSandboxOptions {
  apiKey: string;
  /** The sandbox's clock (tests move it instead of waiting). */
  now?: () => number;
  /** Orders kept before the oldest is forgotten (SANDBOX_MAX_ORDERS unless a test says). */
  maxOrders?: number;
}

const errorBody = (code: string, message: string, details?: string): ErrorResponse => ({
  code,
  message,
  ...(details ? { details } : {}),
});

/** Royal Mail's tracking numbers: two letters, eight digits and a check digit, then GB. */
function trackingNumberOf(serial: number): string {
  const digits = String(10_000_000 + serial).slice(-8);
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  const check = 11 - (sum % 11);
  return `SB${digits}${check === 10 ? 0 : check === 11 ? 5 : check}GB`;
}

export const clickAndDropSandboxRoutes: FastifyPluginAsync<ClickAndDropSandboxOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const orders = new Map<number, SandboxOrder>();
  const byReference = new Map<string, number>();
  let nextIdentifier = 1_000_001;
  let window = { start: 0, calls: 0 };

  function refuse(reply: FastifyReply, status: number, body: ErrorResponse) {
    return reply.status(status).type('application/json').send(body);
  }

  /** The key, then the rate limit: answered, the caller stops here. */
  function admitted(request: FastifyRequest, reply: FastifyReply): boolean {
    const given = request.headers.authorization ?? '';
    if (!sameSecret(`Bearer ${options.apiKey}`, given)) {
      void refuse(reply, 401, errorBody('Unauthorized', 'The API key is missing or not valid.'));
      return false;
    }
    const at = now();
    if (at - window.start >= 1000) window = { start: at, calls: 0 };
    if (window.calls >= SANDBOX_CALLS_PER_SECOND) {
      const seconds = Math.max(1, Math.ceil((window.start + 1000 - at) / 1000));
      void reply.header('Retry-After', String(seconds));
      void refuse(reply, 429, errorBody('TooManyRequests', `Rate limit exceeded. Try again in ${seconds} seconds.`));
      return false;
    }
    window.calls += 1;
    return true;
  }

  /** `{orderIdentifiers}`: integers, and references in double quotes, separated by semicolons. */
  function ordersNamed(identifiers: string): { found: SandboxOrder[]; unreadable: string | undefined } {
    const found: SandboxOrder[] = [];
    for (const part of identifiers.split(';')) {
      const one = part.trim();
      const quoted = /^"(.*)"$/.exec(one);
      const id = quoted ? byReference.get(quoted[1]!) : /^\d+$/.test(one) ? Number(one) : undefined;
      if (!quoted && id === undefined) return { found, unreadable: one };
      const order = id === undefined ? undefined : orders.get(id);
      if (order) found.push(order);
    }
    return { found, unreadable: undefined };
  }

  function infoOf(order: SandboxOrder) {
    return {
      orderIdentifier: order.orderIdentifier,
      ...(order.orderReference ? { orderReference: order.orderReference } : {}),
      createdOn: order.createdOn,
      orderDate: order.orderDate,
      ...(order.printedOn ? { printedOn: order.printedOn } : {}),
      trackingNumber: order.trackingNumber,
    };
  }

  /** Why Click & Drop would refuse this order, in its kind of words; undefined when it makes it. */
  function refusalOf(order: CreateOrderRequest): z.infer<typeof createOrderErrorResponseSchema> | undefined {
    const address = order.recipient.address;
    const postcode = (address.postcode ?? '').trim();
    if (address.countryCode === 'GB' && (!UK_POSTCODE.test(postcode) || /^ZZ/i.test(postcode)))
      return {
        errorCode: 19,
        errorMessage: `The postcode "${postcode}" is not a valid postcode for the United Kingdom.`,
        fields: [{ fieldName: 'recipient.address.postcode', value: postcode }],
      };
    const service = order.postageDetails?.serviceCode;
    if (service !== undefined && !ACCOUNT_SERVICES.has(service))
      return {
        errorCode: 33,
        errorMessage: `The service code "${service}" is not available on this account.`,
        fields: [{ fieldName: 'postageDetails.serviceCode', value: service }],
      };
    return undefined;
  }

  // Its own answer for a path it does not have, in its own error body.
  app.setNotFoundHandler((request, reply) =>
    refuse(reply, 404, errorBody('NotFound', `No such call: ${request.method} ${request.url.split('?')[0]}`)),
  );

  app.post('/orders', async (request, reply) => {
    if (!admitted(request, reply)) return reply;
    const parsed = createOrdersRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
      return refuse(
        reply,
        400,
        errorBody('BadRequest', `The request is not valid: ${field.replace(/^\./, '')}`, issue.message),
      );
    }
    const answer: Required<Pick<CreateOrdersResponse, 'createdOrders' | 'failedOrders'>> = {
      createdOrders: [],
      failedOrders: [],
    };
    for (const item of parsed.data.items) {
      // An order whose reference the account holds is answered, not made again (ADR 0028).
      const held = item.orderReference ? byReference.get(item.orderReference) : undefined;
      const existing = held === undefined ? undefined : orders.get(held);
      if (existing) {
        answer.createdOrders.push(infoOf(existing));
        continue;
      }
      const refusal = refusalOf(item);
      if (refusal) {
        answer.failedOrders.push({ order: item, errors: [refusal] });
        continue;
      }
      const order: SandboxOrder = {
        orderIdentifier: nextIdentifier++,
        orderReference: item.orderReference,
        createdOn: new Date(now()).toISOString(),
        orderDate: item.orderDate,
        trackingNumber: trackingNumberOf(nextIdentifier),
        request: item,
      };
      orders.set(order.orderIdentifier, order);
      if (order.orderReference) byReference.set(order.orderReference, order.orderIdentifier);
      if (orders.size > (options.maxOrders ?? SANDBOX_MAX_ORDERS)) {
        // A Map keeps its keys in the order they were added: the first is the oldest.
        const oldest = orders.values().next().value!;
        orders.delete(oldest.orderIdentifier);
        if (oldest.orderReference && byReference.get(oldest.orderReference) === oldest.orderIdentifier)
          byReference.delete(oldest.orderReference);
      }
      answer.createdOrders.push(infoOf(order));
    }
    return {
      successCount: answer.createdOrders.length,
      errorsCount: answer.failedOrders.length,
      ...answer,
    } satisfies CreateOrdersResponse;
  });

  app.get<{ Params: { ids: string } }>('/orders/:ids', async (request, reply) => {
    if (!admitted(request, reply)) return reply;
    const { found, unreadable } = ordersNamed(request.params.ids);
    if (unreadable !== undefined)
      return refuse(
        reply,
        400,
        errorBody('BadRequest', `"${unreadable}" is neither an order identifier nor a quoted reference.`),
      );
    if (found.length === 0) return refuse(reply, 404, errorBody('NotFound', 'No orders were found.'));
    return found.map(infoOf);
  });

  app.delete<{ Params: { ids: string } }>('/orders/:ids', async (request, reply) => {
    if (!admitted(request, reply)) return reply;
    const { found, unreadable } = ordersNamed(request.params.ids);
    if (unreadable !== undefined)
      return refuse(
        reply,
        400,
        errorBody('BadRequest', `"${unreadable}" is neither an order identifier nor a quoted reference.`),
      );
    if (found.length === 0) return refuse(reply, 404, errorBody('NotFound', 'No orders were found.'));
    for (const order of found) {
      orders.delete(order.orderIdentifier);
      if (order.orderReference) byReference.delete(order.orderReference);
    }
    return {
      deletedOrders: found.map((order) => ({
        orderIdentifier: order.orderIdentifier,
        ...(order.orderReference ? { orderReference: order.orderReference } : {}),
      })),
      errors: [],
    };
  });

  app.get<{ Params: { ids: string }; Querystring: Record<string, string | undefined> }>(
    '/orders/:ids/label',
    async (request, reply) => {
      if (!admitted(request, reply)) return reply;
      const { documentType, includeReturnsLabel } = request.query;
      if (documentType !== 'postageLabel')
        return refuse(
          reply,
          400,
          errorBody(
            'BadRequest',
            'documentType must be one of postageLabel, despatchNote, CN22, CN23; this sandbox draws postageLabel.',
          ),
        );
      if (includeReturnsLabel !== 'true' && includeReturnsLabel !== 'false')
        return refuse(
          reply,
          400,
          errorBody('BadRequest', "includeReturnsLabel is required when documentType is 'postageLabel'."),
        );
      const { found, unreadable } = ordersNamed(request.params.ids);
      const asked = request.params.ids.split(';').length;
      if (unreadable !== undefined)
        return refuse(
          reply,
          400,
          errorBody('BadRequest', `"${unreadable}" is neither an order identifier nor a quoted reference.`),
        );
      if (found.length !== asked)
        return refuse(reply, 404, errorBody('NotFound', 'Some of the orders were not found.'));
      const printedOn = new Date(now()).toISOString();
      for (const order of found) order.printedOn ??= printedOn;
      return reply.type('application/pdf').send(await labelsPdf(found));
    },
  );
};
const FONT = fileURLToPath(new URL('../../documents/pdf/fonts/NotoSans-Regular.ttf', import.meta.url));
const BOLD = fileURLToPath(new URL('../../documents/pdf/fonts/NotoSans-Bold.ttf', import.meta.url));

/** One 4 x 6 inch page per order, in the order asked: plainly a sandbox's, not postage. */
async function labelsPdf(orders: readonly SandboxOrder[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: [288, 432], margin: 18, autoFirstPage: false, font: null as unknown as string });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  for (const order of orders) {
    doc.addPage();
    const address = order.request.recipient.address;
    doc.font('bold').fontSize(10).text('CLICK & DROP SANDBOX: NOT POSTAGE');
    doc
      .font('regular')
      .fontSize(9)
      .text(`Service ${order.request.postageDetails?.serviceCode ?? 'none'}`);
    const weight = order.request.packages?.[0]?.weightInGrams;
    if (weight !== undefined) doc.text(`Weight ${weight} g`);
    doc.moveDown();
    doc.font('bold').fontSize(12);
    for (const line of [
      address.fullName,
      address.companyName,
      address.addressLine1,
      address.addressLine2,
      address.addressLine3,
      address.city,
      address.county,
      address.postcode,
    ])
      if (line) doc.text(line);
    doc.moveDown();
    const barcode = await bwipjs.toBuffer({ bcid: 'code128', text: order.trackingNumber, scale: 2, height: 12 });
    doc.image(barcode, { width: 220 });
    doc.font('regular').fontSize(11).text(`Tracking ${order.trackingNumber}`);
    if (order.orderReference) doc.text(`Reference ${order.orderReference}`);
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
