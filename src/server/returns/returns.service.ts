import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { errorCodes } from '../../contract/error-codes.ts';
import { formatPence, goodsLessVoucherShare } from '../../contract/money.ts';
import {
  returnRequestSchema,
  type AdminReturn,
  type OrderReturns,
  type ReceiveReturn,
  type ReturnQueue,
  type RefundReturn,
  type ShopperReturn,
} from '../../contract/returns.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import type { Database, ReturnStatus } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import type { MailMessage } from '../mail/mailer.ts';
import type { RefundingProvider } from '../orders/order-lifecycle.ts';
import { createOrderRefunds, RefundUnconfirmedError, type RefundClaim } from '../orders/order-refunds.admin-service.ts';
import {
  findOrderLinesWithRestocked,
  goodsTakenBack,
  returnRefundRequestId,
} from '../orders/orders.admin-repository.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  returnAuthorisedEmail,
  returnReceivedEmail,
  returnClosedWithoutRefundEmail,
  returnRefusedEmail,
  returnRequestedEmail,
} from './return-emails.ts';
import { deductionRefusal, reasonsFor, refundDueOf, refundOf, returnableNow, windowEndOf } from './return-rules.ts';
import {
  countReturnsOf,
  findLinesOfReturns,
  findPhotoPositions,
  findReturn,
  findReturnLines,
  findReturnOrder,
  findReturnPhoto,
  findReturnQueue,
  findReturnsOfOrder,
  findCollectedUnits,
  findSentUnits,
  insertReturn,
  moveReturn,
  recordReceipt,
  standardDeliveryPrice,
  unitsInReturns,
  sentUnitsRestockedByOtherRefunds,
  type ReturnOrder,
  type ReturnRow,
} from './returns.repository.ts';

/**
 * Returns after dispatch (docs/rules.md#returns, docs/back-office.md#returns): the shopper asks
 * from the order page, staff authorise or refuse, receive the goods and refund them through the
 * lifecycle's one refund workflow (the same path as a staff refund: order-refunds.admin-service.ts).
 * Every step is audited and e-mailed to the shopper, in the transaction that makes it.
 */

export interface ReturnPhoto {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  bytes: Buffer;
}

const OPEN: readonly ReturnStatus[] = ['requested', 'authorised', 'received'];
const CLOSED: readonly ReturnStatus[] = ['refused', 'refunded'];

const conflict = (message: string): never => {
  throw new RefusedError(409, errorCodes.conflict, message);
};

export function createReturnsService(
  db: Kysely<Database>,
  options: {
    /** The clock: every window and deadline is measured from it (a test gives its own). */
    now: () => Date;
    /** Where authorised returns are sent: the shop's address. */
    /** Where returns are sent, as the owner's settings stand now; read before any transaction opens. */
    returnAddress: () => Promise<string>;
    providerOf?: (id: string | null) => RefundingProvider | undefined;
    /** Wakes the mail worker once a change with its e-mail has committed. */
    wakeMail?: () => void;
  },
) {
  const at = () => options.now().toISOString();
  const refunds = createOrderRefunds({ db, now: at }, options.providerOf ? { providerOf: options.providerOf } : {});

  async function orderOrThrow(trx: Kysely<Database>, orderId: number): Promise<ReturnOrder> {
    const order = await findReturnOrder(trx, orderId);
    if (!order) throw new NotFoundError('There is no such order');
    return order;
  }

  /** Each line of the order with the units that may come back now and the reasons allowed. */
  async function returnableLines(trx: Kysely<Database>, order: ReturnOrder) {
    // One after another: a transaction is one connection.
    const lines = await findReturnLines(trx, order.id);
    // A collection order is never dispatched: its units reach the customer when collected
    // (docs/rules.md#returns), so the cancellation's "return it once collected" holds.
    const sent =
      order.delivery_kind === 'collection'
        ? await findCollectedUnits(trx, order.id)
        : await findSentUnits(trx, order.id);
    const inReturns = await unitsInReturns(trx, order.id);
    const sentRestocked = await sentUnitsRestockedByOtherRefunds(trx, order.id);
    const refundedInFull = order.refunded_total >= order.total_including_delivery;
    const now = options.now();
    return lines.map((line) => {
      const facts = {
        quantity: line.quantity,
        lineTotal: line.line_total,
        sent: sent
          .filter((unit) => unit.order_line_id === line.id)
          .map((unit) => ({
            quantity: unit.quantity,
            windowEndsAt: windowEndOf({
              dispatchedAt: unit.created_at,
              deliveredAt: order.delivered_at,
              transitDays: order.transit_days ?? 3,
            }),
          })),
        inReturns: inReturns.get(line.id) ?? 0,
        sentRestockedByOtherRefunds: Math.max(0, sentRestocked.get(line.id) ?? 0),
      };
      const open =
        order.status === 'paid' && !refundedInFull ? returnableNow(facts, now) : { units: 0, windowEndsAt: null };
      return {
        line,
        facts,
        returnable: open.units,
        windowEndsAt: open.windowEndsAt,
        madeToOrder: line.made_to_order === 1,
      };
    });
  }

  async function linesOf(returnIds: readonly number[]) {
    const lines = await findLinesOfReturns(db, returnIds);
    return (id: number) => lines.filter((line) => line.return_id === id);
  }

  function shopperView(row: ReturnRow, lines: Awaited<ReturnType<typeof findLinesOfReturns>>): ShopperReturn {
    return {
      raNumber: row.ra_number,
      status: row.status,
      reason: row.reason,
      note: row.note,
      requestedAt: row.requested_at,
      refusalReason: row.refusal_reason,
      refundAmount: row.refund_amount,
      lines: lines.map((line) => ({
        orderLineId: line.order_line_id,
        title: line.title,
        sizeName: line.size_name,
        quantity: line.quantity,
        restocked: line.restocked,
        condition: line.condition,
      })),
    };
  }

  /** What a return's refund comes to before any deduction, and the most that is left to refund. */
  async function refundDue(trx: Kysely<Database>, order: ReturnOrder, row: ReturnRow) {
    const lines = await findLinesOfReturns(trx, [row.id]);
    // The goods as paid: their price less their voucher share, running on from the goods refunds
    // took back already, so an order coming back piece by piece gets exactly the whole discount back.
    const worth = lines.reduce((sum, line) => sum + line.unit_price * line.quantity, 0);
    const goods = goodsLessVoucherShare(
      worth,
      { itemsTotal: order.items_total, discount: order.discount_amount },
      await goodsTakenBack(trx, order.id, row.id),
    );
    // Standard outbound delivery comes back when the whole order does, once: with the refund that
    // completes it, when every unit is in a return not refused (this one included) or was put back
    // before it was sent (cancelled), and every other such return has been refunded already.
    const all = await findReturnLines(trx, order.id);
    const returned = await unitsInReturns(trx, order.id);
    const cancelled = new Map(
      (await findOrderLinesWithRestocked(trx, order.id)).map((line) => [
        line.id,
        Number(line.restocked) - Number(line.returned),
      ]),
    );
    const others = (await findReturnsOfOrder(trx, order.id)).filter((other) => other.id !== row.id);
    const whole =
      all.every((line) => (returned.get(line.id) ?? 0) + (cancelled.get(line.id) ?? 0) >= line.quantity) &&
      others.every((other) => other.status === 'refused' || other.status === 'refunded');
    const standard = await standardDeliveryPrice(trx, order);
    const delivery = whole ? Math.min(order.delivery_price, standard ?? order.delivery_price) : 0;
    const cap = Math.max(0, order.total_including_delivery - order.refunded_total);
    return { goods, delivery, cap, lines };
  }

  const itemsOf = (lines: ReadonlyArray<{ quantity: number; title: string; size_name: string }>) =>
    lines.map((line) => `${line.quantity} × ${line.title}${line.size_name ? ` (${line.size_name})` : ''}`);

  async function mailFacts(trx: Kysely<Database>, row: ReturnRow) {
    const order = await orderOrThrow(trx, row.order_id);
    const lines = await findLinesOfReturns(trx, [row.id]);
    return {
      order,
      facts: {
        email: order.email,
        firstname: order.firstname,
        orderNumber: order.order_number,
        raNumber: row.ra_number,
        items: itemsOf(lines),
        linkVersion: order.link_version,
      },
    };
  }

  /**
   * One staff step on a return: the conditional move, its audit entry and the shopper's e-mail in
   * one transaction; of two staff making it at once, one does it and the other is told.
   */
  async function staffStep(
    id: number,
    staff: Staff,
    action: string,
    step: (
      trx: Kysely<Database>,
      row: ReturnRow,
      when: string,
    ) => Promise<{
      after: Record<string, unknown>;
      /** The shopper's e-mail of the step; none when another carries it (a refund's own). */
      mail?: (facts: Awaited<ReturnType<typeof mailFacts>>['facts']) => MailMessage;
    }>,
  ): Promise<AdminReturn> {
    await db.transaction().execute(async (trx) => {
      const row = await findReturn(trx, id);
      if (!row) throw new NotFoundError(`There is no return ${id}`);
      const when = at();
      const done = await step(trx, row, when);
      const { facts } = await mailFacts(trx, row);
      await recordAudit(trx, {
        staff,
        action,
        entityType: 'return',
        entityId: row.ra_number,
        before: { status: row.status },
        after: done.after,
        at: when,
      });
      if (done.mail) await insertMail(trx, done.mail(facts), when);
    });
    options.wakeMail?.();
    return adminOne(id);
  }

  async function adminViews(
    rows: Array<ReturnRow & { order_number: number; email: string; firstname: string; lastname: string }>,
  ): Promise<AdminReturn[]> {
    const ids = rows.map((row) => row.id);
    const photos = await findPhotoPositions(db, ids);
    const views: AdminReturn[] = [];
    for (const row of rows) {
      const order = await orderOrThrow(db, row.order_id);
      const due = await refundDue(db, order, row);
      views.push({
        id: row.id,
        raNumber: row.ra_number,
        orderNumber: row.order_number,
        email: row.email,
        name: `${row.firstname} ${row.lastname}`.trim(),
        status: row.status,
        reason: row.reason,
        note: row.note,
        refusalReason: row.refusal_reason,
        requestedAt: row.requested_at,
        receivedAt: row.received_at,
        refundDueAt: row.refund_due_at,
        refundedAt: row.refunded_at,
        refundAmount: row.refund_amount,
        deduction: row.deduction,
        deductionReason: row.deduction_reason,
        photos: photos.filter((photo) => photo.return_id === row.id).map((photo) => photo.position),
        lines: due.lines.map((line) => ({
          orderLineId: line.order_line_id,
          title: line.title,
          sizeName: line.size_name,
          unitPrice: line.unit_price,
          quantity: line.quantity,
          restocked: line.restocked,
          condition: line.condition,
        })),
        refundDue: { goods: due.goods, delivery: due.delivery, cap: due.cap },
      });
    }
    return views;
  }

  async function adminOne(id: number): Promise<AdminReturn> {
    const row = await findReturn(db, id);
    if (!row) throw new NotFoundError(`There is no return ${id}`);
    const order = await orderOrThrow(db, row.order_id);
    const [view] = await adminViews([
      {
        ...row,
        order_number: order.order_number,
        email: order.email,
        firstname: order.firstname,
        lastname: order.lastname,
      },
    ]);
    return view!;
  }

  return {
    /** What the shopper may return now, per line, and this order's returns. */
    async forOrder(orderId: number): Promise<OrderReturns> {
      const order = await orderOrThrow(db, orderId);
      const lines = await returnableLines(db, order);
      const rows = await findReturnsOfOrder(db, orderId);
      const lineOf = await linesOf(rows.map((row) => row.id));
      return {
        orderNumber: order.order_number,
        lines: lines.map(({ line, returnable, windowEndsAt, madeToOrder }) => ({
          orderLineId: line.id,
          title: line.title,
          sizeName: line.size_name,
          unitPrice: line.unit_price,
          returnable,
          windowEndsAt,
          madeToOrder,
          reasons: reasonsFor(madeToOrder),
        })),
        returns: rows.map((row) => shopperView(row, lineOf(row.id))),
        returnAddress: await options.returnAddress(),
      };
    },

    /**
     * A shopper's request: only units dispatched, within their window, not refunded and not in
     * another return; a made-to-order product never for a change of mind. Field-named 400s.
     */
    async request(orderId: number, input: unknown, photos: readonly ReturnPhoto[]): Promise<ShopperReturn> {
      const parsed = returnRequestSchema.safeParse(input);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((issue) => ({
          field: issue.path.join('.') || 'body',
          message: issue.message,
        }));
        throw new BadRequestError(fields[0]!.message, undefined, fields);
      }
      const request = parsed.data;
      if (photos.length > 0 && request.reason !== 'damaged_in_transit' && request.reason !== 'faulty')
        throw new BadRequestError('Photos are for goods that arrived damaged or are faulty', 'photo');
      const ids = new Set<number>();
      for (const [index, line] of request.lines.entries()) {
        if (ids.has(line.orderLineId))
          throw new BadRequestError('Each item once, please', `lines.${index}.orderLineId`);
        ids.add(line.orderLineId);
      }
      let created: { id: number; row: ReturnRow } | undefined;
      for (let attempt = 0; !created; attempt++) {
        try {
          created = await db.transaction().execute(async (trx) => {
            const order = await orderOrThrow(trx, orderId);
            const lines = await returnableLines(trx, order);
            for (const [index, asked] of request.lines.entries()) {
              const found = lines.find(({ line }) => line.id === asked.orderLineId);
              if (!found) throw new BadRequestError('That item is not on this order', `lines.${index}.orderLineId`);
              if (request.reason === 'changed_mind' && found.madeToOrder)
                throw new BadRequestError(
                  `${found.line.title} is made to order: it cannot be returned because you changed your mind.`,
                  'reason',
                );
              if (found.returnable === 0)
                throw new BadRequestError(
                  `${found.line.title} cannot be returned now: none of it has been dispatched within the last 14 days of delivery, or it has been returned or refunded already.`,
                  `lines.${index}.quantity`,
                );
              if (asked.quantity > found.returnable)
                throw new BadRequestError(
                  `At most ${found.returnable} of ${found.line.title} can be returned.`,
                  `lines.${index}.quantity`,
                );
            }
            const n = (await countReturnsOf(trx, order.id)) + 1;
            const raNumber = `RA-${order.order_number}-${n}`;
            const when = at();
            const id = await insertReturn(
              trx,
              { raNumber, orderId: order.id, reason: request.reason, note: request.note, at: when },
              request.lines,
              photos,
            );
            const row = (await findReturn(trx, id))!;
            const { facts } = await mailFacts(trx, row);
            await recordAudit(trx, {
              staff: { id: null, email: order.email },
              action: 'return.request',
              entityType: 'return',
              entityId: raNumber,
              after: {
                orderNumber: order.order_number,
                reason: request.reason,
                lines: request.lines,
                photos: photos.length,
              },
              at: when,
            });
            await insertMail(trx, returnRequestedEmail(facts), when);
            return { id, row };
          });
        } catch (error) {
          // Two requests for one order at once may pick the same RA number: the second tries again.
          if (attempt < 2 && !(error instanceof BadRequestError) && !(error instanceof NotFoundError)) continue;
          throw error;
        }
      }
      options.wakeMail?.();
      const lineOf = await linesOf([created.id]);
      return shopperView(created.row, lineOf(created.id));
    },

    async queue(show: 'open' | 'closed'): Promise<ReturnQueue> {
      return { returns: await adminViews(await findReturnQueue(db, show === 'open' ? OPEN : CLOSED)) };
    },

    one: adminOne,

    async photo(id: number, position: number) {
      const photo = await findReturnPhoto(db, id, position);
      if (!photo) throw new NotFoundError('There is no such photo');
      return { contentType: photo.content_type, bytes: Buffer.from(photo.bytes) };
    },

    async authorise(id: number, staff: Staff): Promise<AdminReturn> {
      const returnAddress = await options.returnAddress();
      return staffStep(id, staff, 'return.authorise', async (trx, row, when) => {
        if (!(await moveReturn(trx, id, ['requested'], { status: 'authorised', authorised_at: when })))
          conflict(`Return ${row.ra_number} is ${row.status}: only a requested return can be authorised.`);
        return {
          after: { status: 'authorised' },
          mail: (facts) => returnAuthorisedEmail(facts, returnAddress, row.reason),
        };
      });
    },

    refuse(id: number, reason: string, staff: Staff): Promise<AdminReturn> {
      return staffStep(id, staff, 'return.refuse', async (trx, row, when) => {
        if (
          !(await moveReturn(trx, id, ['requested', 'authorised'], {
            status: 'refused',
            refused_at: when,
            refusal_reason: reason,
          }))
        )
          conflict(`Return ${row.ra_number} is ${row.status}: it can no longer be refused.`);
        return { after: { status: 'refused', reason }, mail: (facts) => returnRefusedEmail(facts, reason) };
      });
    },

    /** The goods came back: units to restock and their condition; the refund is due in 14 days. */
    receive(id: number, receipt: ReceiveReturn, staff: Staff): Promise<AdminReturn> {
      return staffStep(id, staff, 'return.receive', async (trx, row, when) => {
        const lines = await findLinesOfReturns(trx, [id]);
        for (const [index, line] of receipt.lines.entries()) {
          const own = lines.find((l) => l.order_line_id === line.orderLineId);
          if (!own) throw new BadRequestError('That item is not in this return', `lines.${index}.orderLineId`);
          if (line.restock > own.quantity)
            throw new BadRequestError(`At most ${own.quantity} can go back in stock`, `lines.${index}.restock`);
        }
        const due = refundDueOf(when);
        if (!(await moveReturn(trx, id, ['authorised'], { status: 'received', received_at: when, refund_due_at: due })))
          conflict(`Return ${row.ra_number} is ${row.status}: only an authorised return can be received.`);
        await recordReceipt(trx, id, receipt.lines);
        return {
          after: { status: 'received', lines: receipt.lines, refundDueAt: due },
          mail: (facts) => returnReceivedEmail(facts, due),
        };
      });
    },

    /**
     * The refund, through the one refund workflow: the goods as paid, standard outbound delivery
     * when the whole order came back, less a deduction for diminished value; never a restocking
     * fee, never more than was paid. The return is claimed first (received → refunded), so two
     * staff refunding it at once refund it once; a refund the workflow refuses gives the claim back.
     * One the provider did not confirm keeps it (its amount stays reserved, and may have been sent):
     * staff are told, the entry audited, and no "refunded" e-mail goes to the shopper.
     */
    async refund(id: number, input: RefundReturn, staff: Staff): Promise<AdminReturn> {
      const deduction = input.deduction ?? 0;
      const deductionReason = (input.deductionReason ?? '').trim();
      const row = await findReturn(db, id);
      if (!row) throw new NotFoundError(`There is no return ${id}`);
      const order = await orderOrThrow(db, row.order_id);
      const due = await refundDue(db, order, row);
      const refused = deductionRefusal(row.reason, deduction, due.goods);
      if (refused) throw new BadRequestError(refused, 'deduction');
      const amount = refundOf(due, deduction);
      // Taken in the transaction that reserves (or records) the refund, so it is refunded once or
      // not at all; the refund request's id names it, for the sweep to give it back if the refund
      // turns out never to have been made (released-refunds.ts).
      const claim: RefundClaim = {
        requestId: returnRefundRequestId(id, randomUUID()),
        async claim(trx, when) {
          const claimed = await moveReturn(trx, id, ['received'], {
            status: 'refunded',
            refunded_at: when,
            refund_amount: amount,
            deduction,
            deduction_reason: deductionReason || null,
          });
          if (!claimed) {
            const status = (await findReturn(trx, id))?.status ?? row.status;
            conflict(`Return ${row.ra_number} is ${status}: only a received return can be refunded.`);
          }
        },
        async unclaim(trx) {
          await moveReturn(trx, id, ['refunded'], {
            status: 'received',
            refunded_at: null,
            refund_amount: null,
            deduction: 0,
            deduction_reason: null,
          });
        },
      };
      const restock = order.holds_stock
        ? due.lines
            .filter((line) => (line.restocked ?? 0) > 0)
            // Returned goods were all sent: they leave the units still to send as they are.
            .map((line) => ({
              lineId: line.order_line_id,
              quantity: line.restocked!,
              returnedAfterDispatch: line.restocked!,
            }))
        : [];
      try {
        // The refund's e-mail and credit note give this to the shopper: it names the return.
        const reason = `Return ${row.ra_number}${deduction > 0 ? `; we deducted ${formatPence(deduction)} because the goods' value was diminished: ${deductionReason}` : ''}`;
        if (amount > 0) await refunds.refund(order.order_number, { amount, reason, restock }, staff, claim);
        // Nothing to refund (the deduction took the goods' price, or the order was refunded in full
        // already): the units staff chose to restock still go back.
        else if (restock.length > 0)
          await refunds.restockWithoutRefund(order.order_number, { reason, units: restock }, staff, claim);
        else await db.transaction().execute((trx) => claim.claim(trx, at()));
      } catch (error) {
        if (error instanceof RefundUnconfirmedError) {
          // The provider may have made it: the amount stays reserved until the sweep learns what
          // became of it, so the return stays claimed (a second click would send a second amount).
          // Audited, but the shopper is not told of a refund that is not confirmed.
          const when = at();
          await recordAudit(db, {
            staff,
            action: 'return.refund',
            entityType: 'return',
            entityId: row.ra_number,
            before: { status: 'received' },
            after: {
              status: 'refunded',
              amount,
              goods: due.goods,
              delivery: due.delivery,
              deduction,
              deductionReason,
              confirmed: false,
            },
            at: when,
          });
        }
        // Refused: the claim went with the transaction that refused it, or was given back with
        // the refund's release.
        throw error;
      }
      return staffStep(id, staff, 'return.refund', async () => ({
        after: { status: 'refunded', amount, goods: due.goods, delivery: due.delivery, deduction, deductionReason },
        // A refund made has its own e-mail, naming the return (issueCreditNoteFor): one message.
        ...(amount > 0
          ? {}
          : { mail: (facts) => returnClosedWithoutRefundEmail(facts, { deduction, deductionReason }) }),
      }));
    },
  };
}

export type ReturnsService = ReturnType<typeof createReturnsService>;
