import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import bwipjs from 'bwip-js';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import PDFDocument from 'pdfkit';
import { sameSecret } from '../../http/same-secret.ts';
import {
  MAX_ORDER_IDENTIFIERS,
  authorizationOf,
  createOrdersRequestSchema,
  labelQuerySchema,
  type CreateOrderErrorResponse,
  type CreateOrderRequest,
  type CreateOrdersResponse,
  type DeleteOrdersResource,
  type ErrorResponse,
  type GetOrderInfoResource,
  type OrderErrorInfo,
  type OrderErrorResponse,
} from './api-types.ts';

/**
 * A local stand-in for Royal Mail Click & Drop's API (issue 38; docs/decisions/0028-click-and-drop-unclear-points.md),
 * served under /sandbox/click-and-drop/api/v1 outside production, as the payment sandboxes are: the
 * same paths, `Authorization: Bearer {key}`, request and answer shapes (each call's 400 in the body
 * the document gives that call), and a rate limit (429 with Retry-After), and label PDFs with the
 * address and a tracking number. Its orders live in this process's memory: a restart starts afresh,
 * numbering from a point of its own, so the orders of labels made before are not found.
 * What it refuses, for tests and the demo:
 *
 * - a UK address whose postcode is not a postcode, or starts "ZZ" (a failed order, with Click &
 *   Drop's kind of message, the others in the batch made);
 * - a service code the account does not have (the codes in contract/admin/shipping.ts are its
 *   services).
 *
 * An order whose `orderReference` it already holds is answered as made, not made twice (ADR 0028).
 */

/**
 * Orders the sandbox keeps: past it the oldest is forgotten, so a demo open to anyone cannot be
 * made to hold orders without end (its key is no secret there).
 */
export const SANDBOX_MAX_ORDERS = 10_000;

/**
 * Calls one key may make in a second; past it, 429 until the second is over. Stricter than the
 * document's 5 (api-types.ts CALLS_PER_SECOND): a client that keeps to this keeps to Click & Drop's,
 * whose limit may be shared with the account's other integrations.
 */
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
  /** The sandbox's clock in milliseconds (tests move it instead of waiting). */
  now?: () => number;
  /** Orders kept before the oldest is forgotten (SANDBOX_MAX_ORDERS unless a test says). */
  maxOrders?: number;
  /** Calls a second before a 429 (SANDBOX_CALLS_PER_SECOND unless a test says). */
  callsPerSecond?: number;
}

const errorBody = (code: string, message: string, details?: string): ErrorResponse => ({
  code,
  message,
  ...(details ? { details } : {}),
});

/** Royal Mail's tracking numbers: two letters, eight digits and a check digit, then GB. */
export function trackingNumberOf(serial: number): string {
  const digits = String(10_000_000 + serial).slice(-8);
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...digits].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  const check = 11 - (sum % 11);
  return `SB${digits}${check === 10 ? 0 : check === 11 ? 5 : check}GB`;
}

/** One part of `{orderIdentifiers}`, read: an identifier, a reference, or neither. */
type Named = { identifier: number } | { reference: string } | { unreadable: string };

/** What a path under /orders/ asks: `{orderIdentifiers}` as sent (raw), and whether for the label. */
function callOf(request: FastifyRequest): { raw: string; label: boolean } | undefined {
  const path = request.url.split('?')[0]!;
  const match = /\/orders\/([^/]+)(\/label)?$/.exec(path);
  return match ? { raw: match[1]!, label: match[2] !== undefined } : undefined;
}

/**
 * `{orderIdentifiers}` as sent: integers, and percent-encoded references in double quotes,
 * separated by semicolons. Read from the raw path, since a reference may hold an encoded ";".
 */
function namedIn(raw: string): Named[] {
  return raw.split(';').map((part): Named => {
    let one: string;
    try {
      one = decodeURIComponent(part).trim();
    } catch {
      return { unreadable: part };
    }
    const quoted = /^"(.*)"$/s.exec(one);
    if (quoted && quoted[1] !== '') return { reference: quoted[1]! };
    if (/^\d{1,15}$/.test(one)) return { identifier: Number(one) };
    return { unreadable: one };
  });
}

const shown = (named: Named) =>
  'identifier' in named ? String(named.identifier) : 'reference' in named ? `"${named.reference}"` : named.unreadable;

export const clickAndDropSandboxRoutes: FastifyPluginAsync<ClickAndDropSandboxOptions> = async (app, options) => {
  const now = options.now ?? Date.now;
  const callsPerSecond = options.callsPerSecond ?? SANDBOX_CALLS_PER_SECOND;
  const orders = new Map<number, SandboxOrder>();
  const byReference = new Map<string, number>();
  // Numbered from a point drawn at each start: its orders live in memory, and numbered from the
  // same point after a restart, an old label's order number named a new order, so an old label
  // printed another customer's address. Now an old one is not found. (Within Click & Drop's int32.)
  let nextIdentifier = randomInt(1, 200_000) * 10_000 + 1;
  let window = { start: 0, calls: 0 };

  function refuse(reply: FastifyReply, status: number, body: ErrorResponse | OrderErrorResponse[] | OrderErrorInfo[]) {
    return reply.status(status).type('application/json').send(body);
  }

  /** The key, then the rate limit: answered, the caller stops here. */
  function admitted(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!sameSecret(authorizationOf(options.apiKey), request.headers.authorization ?? '')) {
      void refuse(reply, 401, errorBody('Unauthorized', 'The API key is missing or not valid.'));
      return false;
    }
    const at = now();
    if (at - window.start >= 1000) window = { start: at, calls: 0 };
    if (window.calls >= callsPerSecond) {
      const seconds = Math.max(1, Math.ceil((window.start + 1000 - at) / 1000));
      void reply.header('Retry-After', String(seconds));
      void refuse(reply, 429, errorBody('TooManyRequests', `Rate limit exceeded. Try again in ${seconds} seconds.`));
      return false;
    }
    window.calls += 1;
    return true;
  }

  function orderOf(named: Named): SandboxOrder | undefined {
    const id =
      'identifier' in named ? named.identifier : 'reference' in named ? byReference.get(named.reference) : undefined;
    return id === undefined ? undefined : orders.get(id);
  }

  /**
   * The orders a path names, each once and in the order named, with those not held; or why the
   * path cannot be read (the caller answers 400 in its own call's shape).
   */
  function ordersNamed(raw: string): { found: SandboxOrder[]; missing: Named[] } | { unreadable: string } {
    const named = namedIn(raw);
    if (named.length > MAX_ORDER_IDENTIFIERS)
      return { unreadable: `At most ${MAX_ORDER_IDENTIFIERS} order identifiers may be given; ${named.length} were.` };
    const bad = named.find((one) => 'unreadable' in one);
    if (bad) return { unreadable: `"${shown(bad)}" is neither an order identifier nor a quoted order reference.` };
    const found = new Map<number, SandboxOrder>();
    const missing: Named[] = [];
    for (const one of named) {
      const order = orderOf(one);
      if (order) found.set(order.orderIdentifier, order);
      else missing.push(one);
    }
    return { found: [...found.values()], missing };
  }

  function infoOf(order: SandboxOrder): GetOrderInfoResource {
    return {
      orderIdentifier: order.orderIdentifier,
      ...(order.orderReference ? { orderReference: order.orderReference } : {}),
      createdOn: order.createdOn,
      orderDate: order.orderDate,
      ...(order.printedOn ? { printedOn: order.printedOn } : {}),
      trackingNumber: order.trackingNumber,
      packages: [{ packageNumber: 1, trackingNumber: order.trackingNumber }],
    };
  }

  function forget(order: SandboxOrder) {
    orders.delete(order.orderIdentifier);
    if (order.orderReference && byReference.get(order.orderReference) === order.orderIdentifier)
      byReference.delete(order.orderReference);
  }

  /** Why Click & Drop would refuse this order, in its kind of words; undefined when it makes it. */
  function refusalOf(order: CreateOrderRequest): CreateOrderErrorResponse | undefined {
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

  // A body it cannot read (not JSON, too big, another type) in its own error body, not Fastify's.
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return refuse(
      reply,
      status,
      status === 500
        ? errorBody('InternalServerError', 'The sandbox failed.')
        : errorBody('BadRequest', 'The request could not be read.', error.message),
    );
  });

  // Its own answer for a path it does not have, in its own error body.
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    refuse(reply, 404, errorBody('NotFound', `No such call: ${request.method} ${request.url.split('?')[0]}`));
  app.setNotFoundHandler(notFound);

  app.post('/orders', { bodyLimit: 1024 * 1024 }, async (request, reply) => {
    if (!admitted(request, reply)) return reply;
    const parsed = createOrdersRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
      return refuse(
        reply,
        400,
        errorBody('BadRequest', `The request is not valid: ${field.replace(/^\./, '') || 'body'}`, issue.message),
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
      const orderIdentifier = nextIdentifier++;
      const order: SandboxOrder = {
        orderIdentifier,
        orderReference: item.orderReference,
        createdOn: new Date(now()).toISOString(),
        orderDate: item.orderDate,
        trackingNumber: trackingNumberOf(orderIdentifier),
        request: item,
      };
      orders.set(orderIdentifier, order);
      if (order.orderReference) byReference.set(order.orderReference, orderIdentifier);
      // A Map keeps its keys in the order they were added: the first is the oldest.
      if (orders.size > (options.maxOrders ?? SANDBOX_MAX_ORDERS)) forget(orders.values().next().value!);
      answer.createdOrders.push(infoOf(order));
    }
    return {
      successCount: answer.createdOrders.length,
      errorsCount: answer.failedOrders.length,
      ...answer,
    } satisfies CreateOrdersResponse;
  });

  // `/orders/*`, not `/orders/:orderIdentifiers`: a hundred identifiers are longer than the router
  // lets one parameter be (its maxParamLength answers 414), and are read from the raw path anyway.
  app.get('/orders/*', async (request, reply) => {
    const call = callOf(request);
    if (!call) return notFound(request, reply);
    if (!admitted(request, reply)) return reply;
    return call.label ? label(call.raw, request, reply) : specificOrders(call.raw, reply);
  });

  app.delete('/orders/*', async (request, reply) => {
    const call = callOf(request);
    if (!call || call.label) return notFound(request, reply);
    if (!admitted(request, reply)) return reply;
    return deleteOrders(call.raw, reply);
  });

  /** GET /orders/{orderIdentifiers}: those held, in the order named; 404 when none is. */
  function specificOrders(raw: string, reply: FastifyReply) {
    const named = ordersNamed(raw);
    if ('unreadable' in named) return refuse(reply, 400, [{ code: 'BadRequest', message: named.unreadable }]);
    if (named.found.length === 0) return refuse(reply, 404, errorBody('NotFound', 'No orders were found.'));
    return reply.send(named.found.map(infoOf));
  }

  /** DELETE /orders/{orderIdentifiers}: those held are deleted, the others named in `errors`. */
  function deleteOrders(raw: string, reply: FastifyReply) {
    const named = ordersNamed(raw);
    if ('unreadable' in named) return refuse(reply, 400, [{ code: 'BadRequest', message: named.unreadable }]);
    if (named.found.length === 0) return refuse(reply, 404, errorBody('NotFound', 'No orders were found.'));
    for (const order of named.found) forget(order);
    return reply.send({
      deletedOrders: named.found.map((order) => ({
        orderIdentifier: order.orderIdentifier,
        ...(order.orderReference ? { orderReference: order.orderReference } : {}),
        orderInfo: 'Deleted',
      })),
      errors: named.missing.map((one) => ({
        ...('identifier' in one ? { orderIdentifier: one.identifier } : {}),
        ...('reference' in one ? { orderReference: one.reference } : {}),
        code: 'NotFound',
        message: `The order ${shown(one)} was not found.`,
      })),
    } satisfies DeleteOrdersResource);
  }

  /** GET /orders/{orderIdentifiers}/label: one PDF, a page per order in the order named. */
  async function label(raw: string, request: FastifyRequest, reply: FastifyReply) {
    const query = labelQuerySchema.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0]!;
      return refuse(reply, 400, [{ code: 'BadRequest', message: `${issue.path.join('.')}: ${issue.message}` }]);
    }
    if (query.data.documentType !== 'postageLabel')
      return refuse(reply, 400, [{ code: 'BadRequest', message: 'This sandbox draws postageLabel documents only.' }]);
    const named = ordersNamed(raw);
    if ('unreadable' in named) return refuse(reply, 400, [{ code: 'BadRequest', message: named.unreadable }]);
    // One order not held refuses the whole call: a PDF short of a label would be worse (ADR 0028).
    if (named.missing.length > 0)
      return refuse(reply, 404, errorBody('NotFound', `Orders not found: ${named.missing.map(shown).join(', ')}.`));
    const printedOn = new Date(now()).toISOString();
    for (const order of named.found) order.printedOn ??= printedOn;
    return reply.type('application/pdf').send(await labelsPdf(named.found));
  }
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
