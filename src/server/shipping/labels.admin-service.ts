import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import {
  carrierServices,
  type CarrierService,
  type LabelChange,
  type LabelOutcome,
  type LabelQueue,
  type LabelQueueEntry,
} from '../../contract/admin/shipping.ts';
import type { FulfilmentRequest, UntrackedService } from '../../contract/admin/orders.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, RefusedError } from '../errors.ts';
import { unitsToSend } from '../orders/order-lifecycle.ts';
import { findLinesWithUnits } from '../orders/orders.admin-repository.ts';
import type { Staff } from '../staff/staff.service.ts';
import { CarrierRefusedError, CarrierUnavailableError, type LabelCarrier, type LabelRequest } from './label-carrier.ts';
import {
  findDeliveryDetailChanges,
  findLiveLabels,
  findNewestLabels,
  findOrdersForLabels,
  findParcelFacts,
  moveLabel,
  startLabel,
} from './labels.repository.ts';
import { parcelOf, type Parcel } from './parcels.ts';

/**
 * Shipping labels from the orders waiting to be dispatched (docs/back-office.md#shipping-labels):
 * made in the carrier in batches, each under a reference of its own (labelReference) so a retry
 * after a lost answer finds the order it made instead of buying a second; printed as one PDF; and dispatched, each
 * order's tracking number written back as a fulfilment and its customer e-mailed, in the
 * fulfilment's own transaction. A label made by mistake is cancelled in the carrier.
 */

type Order = Awaited<ReturnType<typeof findOrdersForLabels>>[number];
type Label = Awaited<ReturnType<typeof findNewestLabels>>[number];

/**
 * Whether a change of delivery details (its audit entry's `after`, order-moves.admin-service.ts)
 * moved the address, not only the contact number or e-mail. An entry that does not say is taken
 * as one that did: the refusal then only may be out of date, which is all the page says.
 */
function addressMoved(after: string | null): boolean {
  type Address = Record<'line1' | 'line2' | 'line3' | 'townCity' | 'postcode', string | null | undefined>;
  type Entry = { deliveryAddress?: Address; was?: { deliveryAddress?: Address } } | null;
  let entry: Entry;
  try {
    entry = after === null ? null : (JSON.parse(after) as Entry);
  } catch {
    return true;
  }
  const to = entry?.deliveryAddress;
  const from = entry?.was?.deliveryAddress;
  if (!to || !from) return true;
  return (['line1', 'line2', 'line3', 'townCity', 'postcode'] as const).some(
    (field) => (to[field] ?? '') !== (from[field] ?? ''),
  );
}

export interface LabelsServiceOptions {
  /** The carrier, or undefined when labels are off (CLICK_AND_DROP_MODE). */
  carrier: LabelCarrier | undefined;
  mode: LabelQueue['mode'];
  /** The orders feature's dispatch, with the label marked sent in its transaction. */
  dispatch: (
    orderNumber: number,
    toSend: FulfilmentRequest,
    staff: Staff,
    alongside: (trx: Kysely<Database>, fulfilmentId: number) => Promise<void>,
  ) => Promise<void>;
  /** An order's packing slip as a PDF (the documents feature's). */
  packingSlipPdf?: (orderNumber: number) => Promise<{ bytes: Buffer }>;
  now?: () => Date;
}

/** The untracked services a fulfilment names, by carrier service. */
function untrackedServiceOf(service: CarrierService): UntrackedService {
  return service === 'secondClass' ? 'Royal Mail 2nd Class' : 'Royal Mail 1st Class';
}

/**
 * How long a label being made is left to the press that started it: a second press within it (a
 * double click) neither looks it up nor makes it, which could buy a second while the first is still
 * on its way to Click & Drop (an outside attack saw the double lookup).
 */
export const LABEL_IN_FLIGHT_MS = 60_000;

/**
 * A label's reference in Click & Drop: the order number, which staff search by there, and a random
 * tail, so a lookup after a lost answer finds only the order this label made, never one keyed in by
 * hand (or left from an earlier label) under the bare order number (an outside attack).
 */
export function labelReference(orderNumber: number): string {
  return `${orderNumber}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

const NO_ANSWER =
  'Click & Drop did not answer. Make the label again: it looks for the order first, so no second label is bought.';

export function createLabelsService(db: Kysely<Database>, options: LabelsServiceOptions) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  function carrier(): LabelCarrier {
    if (!options.carrier)
      throw new RefusedError(
        409,
        errorCodes.conflict,
        'Shipping labels are off: set CLICK_AND_DROP_MODE=live and CLICK_AND_DROP_API_KEY to buy them.',
      );
    return options.carrier;
  }

  /** Each order's parcel and the request the carrier is sent, or why it cannot have a label now. */
  async function plansOf(orders: readonly Order[]) {
    const lines = await findLinesWithUnits(
      db,
      orders.map((order) => order.id),
    );
    const facts = new Map(
      (
        await findParcelFacts(
          db,
          lines.map((line) => line.product_stock_id),
        )
      ).map((row) => [row.id, row]),
    );
    return new Map(
      orders.map((order) => {
        const plan = ((): { request: Omit<LabelRequest, 'reference'>; parcel: Parcel } | { blocked: string } => {
          if (!order.waiting) return { blocked: 'It is not waiting to be dispatched.' };
          if (order.delivery_kind === 'collection')
            return { blocked: 'It is collected from the shop: it needs no label.' };
          const service = order.carrier_service as CarrierService | null;
          if (!service || !(service in carrierServices) || !order.package_format)
            return {
              blocked: `Its delivery method "${order.delivery_method_name}" has no carrier service: choose one on the delivery page.`,
            };
          const own = lines.filter((line) => line.order_id === order.id);
          const packed = own.map((line) => {
            const fact = facts.get(line.product_stock_id);
            const preset = fact?.box_length_mm != null;
            const sides = preset
              ? { lengthMm: fact.box_length_mm!, widthMm: fact.box_width_mm!, heightMm: fact.box_height_mm! }
              : fact?.length_mm && fact.width_mm && fact.height_mm
                ? { lengthMm: fact.length_mm, widthMm: fact.width_mm, heightMm: fact.height_mm }
                : null;
            return {
              line,
              units: unitsToSend(line),
              weightGrams: fact?.weight_grams ?? null,
              box: sides ? { ...sides, emptyGrams: preset ? fact!.box_weight_grams! : 0, preset } : null,
            };
          });
          const parcel = parcelOf(
            packed.map((unit) => ({
              title: unit.line.title,
              sizeName: unit.line.size_name,
              units: unit.units,
              weightGrams: unit.weightGrams,
              box: unit.box,
            })),
          );
          if ('refused' in parcel) return { blocked: parcel.refused };
          return {
            parcel: parcel.parcel,
            request: {
              recipient: {
                fullName: `${order.firstname} ${order.lastname}`,
                addressLine1: order.delivery_line1,
                addressLine2: order.delivery_line2,
                addressLine3: order.delivery_line3,
                city: order.delivery_town_city,
                postcode: order.delivery_postcode,
                countryCode: order.iso_code ?? 'GB',
                phoneNumber: order.contact_number,
                emailAddress: order.email,
              },
              orderDate: order.created_at,
              subtotal: order.items_total - order.discount_amount,
              shippingCostCharged: order.delivery_price,
              total: order.total_including_delivery,
              serviceCode: carrierServices[service].code,
              packageFormat: order.package_format,
              weightGrams: parcel.parcel.weightGrams,
              dimensions: parcel.parcel.dimensions,
              contents: packed
                .filter((unit) => unit.units > 0)
                .map((unit) => ({
                  name: `${unit.line.title} (${unit.line.size_name})`,
                  sku: String(unit.line.product_stock_id),
                  quantity: unit.units,
                  unitValue: unit.line.unit_price,
                  unitWeightGrams: unit.weightGrams ?? 0,
                })),
            },
          };
        })();
        return [order.id, plan] as const;
      }),
    );
  }

  /** Each order's label that waits to be sent, with its order number; refused when one has none. */
  async function labelsOf(orderIds: readonly number[]) {
    carrier();
    const orders = new Map((await findOrdersForLabels(db, { orderIds })).map((order) => [order.id, order]));
    const live = new Map((await findLiveLabels(db, orderIds)).map((label) => [label.order_id, label]));
    const missing = orderIds.filter((id) => live.get(id)?.status !== 'created');
    if (missing.length > 0)
      throw new BadRequestError(
        `No label is ready for order ${missing.map((id) => orders.get(id)?.order_number ?? id).join(', ')}: make the labels first.`,
        'orders',
      );
    return new Map(
      orderIds.map((id) => [
        id,
        { carrierOrderId: live.get(id)!.carrier_order_id!, orderNumber: orders.get(id)!.order_number },
      ]),
    );
  }

  /** The carrier's PDF of these orders' labels; its refusal in its own words. */
  async function labelsFrom(
    live: Map<number, { carrierOrderId: number }>,
    orderIds: readonly number[],
  ): Promise<Buffer> {
    try {
      return await carrier().labels(orderIds.map((id) => live.get(id)!.carrierOrderId));
    } catch (error) {
      if (error instanceof CarrierUnavailableError || error instanceof CarrierRefusedError)
        throw new RefusedError(502, errorCodes.carrier, `Click & Drop: ${error.message}`);
      throw error;
    }
  }

  /**
   * For each order whose newest label Click & Drop refused, what was changed after it refused: its
   * address by staff (the change's audit entry is later than the refusal), or its parcel's weight
   * (the label was asked for another). The refusal may then be out of date (docs/back-office.md#shipping-labels).
   */
  async function changesSinceRefusal(
    orders: readonly Order[],
    labelOf: ReadonlyMap<number, Label>,
    plans: Awaited<ReturnType<typeof plansOf>>,
  ): Promise<Map<number, LabelChange[]>> {
    const refused = orders.filter((order) => labelOf.get(order.id)?.status === 'failed');
    if (refused.length === 0) return new Map();
    // A failed label is never moved again: its updated_at is when it was refused.
    const refusedAt = (order: Order) => labelOf.get(order.id)!.updated_at;
    const since = refused.map(refusedAt).reduce((earliest, at) => (at < earliest ? at : earliest));
    const changes = await findDeliveryDetailChanges(
      db,
      refused.map((order) => order.order_number),
      since,
    );
    return new Map(
      refused.map((order) => {
        const changed: LabelChange[] = [];
        if (
          changes.some(
            (change) =>
              change.entity_id === String(order.order_number) &&
              change.at > refusedAt(order) &&
              addressMoved(change.after),
          )
        )
          changed.push('address');
        const plan = plans.get(order.id)!;
        if ('request' in plan && plan.request.weightGrams !== labelOf.get(order.id)!.weight_grams)
          changed.push('weight');
        return [order.id, changed];
      }),
    );
  }

  const audit = (trx: Kysely<Database>, staff: Staff, action: string, order: Order, after: unknown) =>
    recordAudit(trx, { staff, action, entityType: 'order', entityId: order.order_number, after, at: now() });

  return {
    /** The orders waiting to be dispatched, each with its label as it stands and whether one can be made. */
    async queue(): Promise<LabelQueue> {
      const orders = await findOrdersForLabels(db, 'waiting');
      const [plans, labels] = await Promise.all([
        plansOf(orders),
        findNewestLabels(
          db,
          orders.map((order) => order.id),
        ),
      ]);
      const labelOf = new Map(labels.map((label) => [label.order_id, label]));
      const changed = await changesSinceRefusal(orders, labelOf, plans);
      return {
        enabled: options.carrier !== undefined,
        mode: options.mode,
        orders: orders.map((order): LabelQueueEntry => {
          const plan = plans.get(order.id)!;
          const label = labelOf.get(order.id);
          const service = order.carrier_service as CarrierService | null;
          return {
            orderId: order.id,
            orderNumber: String(order.order_number),
            customerName: `${order.firstname} ${order.lastname}`,
            postcode: order.delivery_postcode,
            deliveryMethod: order.delivery_method_name,
            service: service && service in carrierServices ? carrierServices[service].label : null,
            blocked: 'blocked' in plan ? plan.blocked : null,
            parcel:
              'blocked' in plan
                ? null
                : {
                    contents: plan.request.contents.map((unit) => ({ name: unit.name, quantity: unit.quantity })),
                    weightGrams: plan.request.weightGrams,
                  },
            label: label
              ? {
                  status: label.status,
                  trackingNumber: label.tracking_number,
                  message: label.error,
                  changedSince: changed.get(order.id) ?? [],
                }
              : null,
          };
        }),
      };
    },

    /**
     * Makes these orders' labels in the carrier. An order whose label is being made or waits to be
     * sent is not made again: one whose answer was lost is looked for by its reference first.
     */
    async make(orderIds: readonly number[], staff: Staff): Promise<LabelOutcome[]> {
      const labels = carrier();
      const orders = await findOrdersForLabels(db, { orderIds });
      const byId = new Map(orders.map((order) => [order.id, order]));
      const plans = await plansOf(orders);
      const outcomes = new Map<number, LabelOutcome>();
      const outcome = (
        order: Order,
        status: LabelOutcome['status'],
        trackingNumber: string | null,
        message: string | null,
      ) =>
        outcomes.set(order.id, {
          orderId: order.id,
          orderNumber: String(order.order_number),
          status,
          trackingNumber,
          message,
        });

      const toMake = new Map<string, { order: Order; labelId: number; request: LabelRequest }>();
      const toFind = new Map<string, { order: Order; labelId: number; request: LabelRequest }>();
      const live = new Map((await findLiveLabels(db, orderIds)).map((label) => [label.order_id, label]));
      for (const id of orderIds) {
        const order = byId.get(id);
        if (!order) throw new BadRequestError(`There is no order with id ${id}`, 'orderIds');
        const plan = plans.get(id)!;
        const existing = live.get(id);
        if (existing?.status === 'created') {
          outcome(order, 'created', existing.tracking_number, null);
          continue;
        }
        if ('blocked' in plan) {
          outcome(order, 'refused', null, plan.blocked);
          continue;
        }
        if (existing && Date.parse(now()) - Date.parse(existing.updated_at) < LABEL_IN_FLIGHT_MS) {
          outcome(
            order,
            'creating',
            null,
            'This label is being made now. Give it a minute, then make it again if it stays.',
          );
          continue;
        }
        if (existing) {
          toFind.set(existing.carrier_reference, {
            order,
            labelId: existing.id,
            request: { ...plan.request, reference: existing.carrier_reference },
          });
          continue;
        }
        const reference = labelReference(order.order_number);
        const labelId = await startLabel(db, {
          order_id: order.id,
          service: order.carrier_service!,
          package_format: plan.request.packageFormat,
          weight_grams: plan.request.weightGrams,
          staff_email: staff.email,
          carrier_reference: reference,
          at: now(),
        });
        // Another member started it this moment: theirs stands.
        if (labelId === undefined) outcome(order, 'creating', null, 'Another member is making this label now.');
        else toMake.set(reference, { order, labelId, request: { ...plan.request, reference } });
      }

      const made = async (
        entry: { order: Order; labelId: number },
        carrierOrderId: number,
        trackingNumber: string | null,
      ) => {
        await db.transaction().execute(async (trx) => {
          await moveLabel(
            trx,
            entry.labelId,
            ['creating'],
            { status: 'created', carrier_order_id: carrierOrderId, tracking_number: trackingNumber, error: null },
            now(),
          );
          await audit(trx, staff, 'order.label-created', entry.order, { carrierOrderId, trackingNumber });
        });
        outcome(entry.order, 'created', trackingNumber, null);
      };
      const failed = async (entry: { order: Order; labelId: number }, message: string) => {
        await moveLabel(db, entry.labelId, ['creating'], { status: 'failed', error: message.slice(0, 2000) }, now());
        outcome(entry.order, 'failed', null, message);
      };
      const unanswered = (entries: Iterable<{ order: Order }>, message = NO_ANSWER) => {
        for (const entry of entries) outcome(entry.order, 'creating', null, message);
      };

      try {
        // Answers lost before: what the carrier made is taken as made; the rest is made now.
        if (toFind.size > 0) {
          for (const found of await labels.find([...toFind.keys()])) {
            const entry = toFind.get(found.reference);
            if (!entry) continue;
            await made(entry, found.carrierOrderId, found.trackingNumber);
            toFind.delete(found.reference);
          }
          for (const [reference, entry] of toFind) toMake.set(reference, entry);
        }
        if (toMake.size > 0) {
          const results = await labels.create([...toMake.values()].map((entry) => entry.request));
          for (const result of results) {
            const entry = toMake.get(result.reference);
            if (!entry) continue;
            toMake.delete(result.reference);
            if ('made' in result) await made(entry, result.made.carrierOrderId, result.made.trackingNumber);
            else await failed(entry, result.refused);
          }
          // Neither made nor refused in the answer: looked for next time.
          unanswered(
            toMake.values(),
            'Click & Drop did not say what became of this order. Make the label again to look for it.',
          );
        }
      } catch (error) {
        const pending = [...toFind.values(), ...toMake.values()].filter((entry) => !outcomes.has(entry.order.id));
        if (error instanceof CarrierUnavailableError) unanswered(pending);
        else if (error instanceof CarrierRefusedError) for (const entry of pending) await failed(entry, error.message);
        else throw error;
      }
      return orderIds.map((id) => outcomes.get(id)!);
    },

    /** The labels of these orders as one PDF, in the order given; each must have its label made. */
    async labelsPdf(orderIds: readonly number[]): Promise<{ filename: string; bytes: Buffer }> {
      const labels = await labelsOf(orderIds);
      return { filename: `labels-${now().slice(0, 10)}.pdf`, bytes: await labelsFrom(labels, orderIds) };
    },

    /**
     * Print in one go: each order's label followed by its packing slip, in the order given, as one
     * PDF. The carrier's labels are fetched in one call and told apart by page when it gives one
     * page an order; otherwise each order's are fetched on their own.
     */
    async labelsAndSlipsPdf(orderIds: readonly number[]): Promise<{ filename: string; bytes: Buffer }> {
      if (!options.packingSlipPdf) throw new Error('the labels service was given no packing slips');
      const live = await labelsOf(orderIds);
      const all = await PDFDocument.load(await labelsFrom(live, orderIds));
      const pagesOf: Array<{ document: PDFDocument; pages: number[] }> = [];
      if (all.getPageCount() === orderIds.length) {
        orderIds.forEach((_, index) => pagesOf.push({ document: all, pages: [index] }));
      } else {
        for (const id of orderIds) {
          const own = await PDFDocument.load(await labelsFrom(live, [id]));
          pagesOf.push({ document: own, pages: own.getPageIndices() });
        }
      }
      const merged = await PDFDocument.create();
      merged.setTitle(`Labels and packing slips, ${now().slice(0, 10)}`);
      for (const [index, id] of orderIds.entries()) {
        const { document, pages } = pagesOf[index]!;
        for (const page of await merged.copyPages(document, pages)) merged.addPage(page);
        const slip = await PDFDocument.load((await options.packingSlipPdf(live.get(id)!.orderNumber)).bytes);
        for (const page of await merged.copyPages(slip, slip.getPageIndices())) merged.addPage(page);
      }
      return { filename: `labels-and-slips-${now().slice(0, 10)}.pdf`, bytes: Buffer.from(await merged.save()) };
    },

    /**
     * Dispatches these orders with their labels' tracking numbers: a fulfilment of every unit still
     * to send, its customer e-mailed, and the label marked sent, in one transaction each.
     */
    async dispatch(orderIds: readonly number[], staff: Staff): Promise<LabelOutcome[]> {
      const orders = new Map((await findOrdersForLabels(db, { orderIds })).map((order) => [order.id, order]));
      const live = new Map((await findLiveLabels(db, orderIds)).map((label) => [label.order_id, label]));
      const outcomes: LabelOutcome[] = [];
      for (const id of orderIds) {
        const order = orders.get(id);
        if (!order) throw new BadRequestError(`There is no order with id ${id}`, 'orderIds');
        const label = live.get(id);
        const answer = (status: LabelOutcome['status'], message: string | null) =>
          outcomes.push({
            orderId: id,
            orderNumber: String(order.order_number),
            status,
            trackingNumber: label?.tracking_number ?? null,
            message,
          });
        if (label?.status !== 'created') {
          answer('refused', 'It has no label ready: make its label first.');
          continue;
        }
        const service = carrierServices[label.service as CarrierService];
        if (service.tracked && !label.tracking_number) {
          answer('refused', 'Click & Drop has given no tracking number for it yet: make its label again in a minute.');
          continue;
        }
        const toSend: FulfilmentRequest = service.tracked
          ? {
              lines: undefined,
              parcels: [{ carrier: service.carrier, trackingNumber: label.tracking_number! }],
              untracked: undefined,
            }
          : {
              lines: undefined,
              parcels: undefined,
              untracked: { service: untrackedServiceOf(label.service as CarrierService) },
            };
        try {
          await options.dispatch(order.order_number, toSend, staff, async (trx, fulfilmentId) => {
            if (
              !(await moveLabel(
                trx,
                label.id,
                ['created'],
                { status: 'dispatched', fulfilment_id: fulfilmentId },
                now(),
              ))
            )
              throw new RefusedError(409, errorCodes.conflict, 'This label was sent or cancelled a moment ago.');
          });
          answer('dispatched', null);
        } catch (error) {
          if (error instanceof RefusedError || error instanceof BadRequestError) answer('refused', error.message);
          else throw error;
        }
      }
      return outcomes;
    },

    /** Cancels an order's label that waits to be sent, in the carrier and here. */
    async cancel(orderId: number, staff: Staff): Promise<LabelOutcome> {
      const labels = carrier();
      const [order] = await findOrdersForLabels(db, { orderIds: [orderId] });
      const [label] = await findLiveLabels(db, [orderId]);
      if (!order || label?.status !== 'created' || label.carrier_order_id === null)
        throw new RefusedError(409, errorCodes.conflict, 'This order has no label waiting to be sent.');
      // Claimed first: a dispatch pressed while Click & Drop cancels then finds no label to send with
      // (an outside attack saw both answer 200, the order sent with a label deleted in Click & Drop).
      if (!(await moveLabel(db, label.id, ['created'], { status: 'cancelled' }, now())))
        throw new RefusedError(409, errorCodes.conflict, 'This label was sent or cancelled a moment ago.');
      const undo = () => moveLabel(db, label.id, ['cancelled'], { status: 'created' }, now()).catch(() => false);
      let refusals;
      try {
        refusals = await labels.cancel([label.carrier_order_id]);
      } catch (error) {
        await undo();
        if (error instanceof CarrierUnavailableError || error instanceof CarrierRefusedError)
          throw new RefusedError(502, errorCodes.carrier, `Click & Drop: ${error.message}`);
        throw error;
      }
      if (refusals.length > 0) {
        await undo();
        throw new RefusedError(409, errorCodes.conflict, `Click & Drop would not cancel it: ${refusals[0]!.message}`);
      }
      await recordAudit(db, {
        staff,
        action: 'order.label-cancelled',
        entityType: 'order',
        entityId: order.order_number,
        after: { carrierOrderId: label.carrier_order_id, trackingNumber: label.tracking_number },
        at: now(),
      });
      return {
        orderId,
        orderNumber: String(order.order_number),
        status: 'cancelled',
        trackingNumber: label.tracking_number,
        message: null,
      };
    },
  };
}
export type LabelsService = ReturnType<typeof createLabelsService>;
