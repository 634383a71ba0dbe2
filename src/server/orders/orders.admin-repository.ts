import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { OrderListQuery } from '../../contract/admin/orders.ts';
import {
  paymentStatusOfStored,
  orderStatuses,
  toDispatch,
  type DeliveryKind,
  type Fulfilment,
  type PaymentStatus,
} from '../../contract/order-status.ts';
import type { Database } from '../db/schema.ts';

/**
 * The back office's order SQL: the list with its filters and search, one order with everything
 * about it, and the fulfilment and refund writes (which take the caller's transaction).
 */

type Orders = ExpressionBuilder<Database, 'orders'>;

/** Some of its money is still the shop's (isRefundedInFull, in SQL). */
const notRefundedInFull = (eb: Orders) => eb('refunded_total', '<', eb.ref('total_including_delivery'));

/**
 * In the packer's list (isWaitingToDispatch, in SQL): paid, not refunded in full, not yet on its
 * way. The list's "to dispatch" filter, the dashboard and the batch of packing slips all use it.
 */
export function waitingToDispatch(eb: Orders): Expression<SqlBool> {
  return eb.and([eb('status', '=', 'paid'), eb('fulfilment', 'in', toDispatch), notRefundedInFull(eb)]);
}

/** Orders whose payment reads as `payment` (paymentStatusOf, in SQL). */
function paymentCondition(eb: Orders, payment: PaymentStatus): Expression<SqlBool> {
  switch (payment) {
    case 'paid':
      return eb.and([eb('status', '=', 'paid'), eb('refunded_total', '<=', 0)]);
    case 'partially_refunded':
      return eb.and([eb('status', '=', 'paid'), eb('refunded_total', '>', 0), notRefundedInFull(eb)]);
    case 'refunded':
      return eb.and([eb('status', '=', 'paid'), eb('refunded_total', '>=', eb.ref('total_including_delivery'))]);
    default:
      return eb(
        'status',
        'in',
        orderStatuses.filter((status) => paymentStatusOfStored[status] === payment),
      );
  }
}

/** The same expressions as migration 0011's indexes, so a search uses them. */
const postcodeKey = (column: 'delivery_postcode' | 'billing_postcode') =>
  sql<string>`replace(upper(${sql.ref(column)}), ' ', '')`;
const lowerOf = (column: 'lastname' | 'firstname' | 'email') => sql<string>`lower(${sql.ref(column)})`;

/** Text that starts with `prefix`, as a range an index can serve: [prefix, prefix + U+FFFF). */
function startsWith(eb: Orders, expression: Expression<string>, prefix: string): Expression<SqlBool> {
  return eb.and([eb(expression, '>=', prefix), eb(expression, '<', `${prefix}\uffff`)]);
}

const UK_POSTCODE_START = /^[A-Z]{1,2}\d[A-Z\d]?(\d[A-Z]{0,2})?$/;

/** What a search box's text can mean: an order number, an e-mail address, a postcode or a name. */
function searchCondition(eb: Orders, text: string): Expression<SqlBool> {
  const trimmed = text.trim();
  const digits = /^#?(\d{1,9})$/.exec(trimmed)?.[1];
  if (digits) return eb('order_number', '=', Number(digits));
  if (trimmed.includes('@')) return startsWith(eb, lowerOf('email'), trimmed.toLowerCase());
  const compact = trimmed.toUpperCase().replace(/\s+/g, '');
  const words = trimmed.toLowerCase().split(/\s+/);
  // One word may be a surname or the start of an e-mail address; two are a first name and a surname.
  const byName =
    words.length >= 2
      ? eb.and([startsWith(eb, lowerOf('firstname'), words[0]!), startsWith(eb, lowerOf('lastname'), words.at(-1)!)])
      : eb.or([startsWith(eb, lowerOf('lastname'), words[0]!), startsWith(eb, lowerOf('email'), words[0]!)]);
  if (/\d/.test(compact) && UK_POSTCODE_START.test(compact)) {
    return eb.or([
      startsWith(eb, postcodeKey('delivery_postcode'), compact),
      startsWith(eb, postcodeKey('billing_postcode'), compact),
    ]);
  }
  return byName;
}

function filtered(
  db: Kysely<Database>,
  query: Omit<Required<OrderListQuery>, 'sort' | 'page' | 'pageSize'> | OrderListQuery,
) {
  return db.selectFrom('orders').where((eb) => {
    const conditions: Expression<SqlBool>[] = [];
    if (query.status) conditions.push(eb('status', '=', query.status));
    if (query.paid === 'paid') conditions.push(eb('status', '=', 'paid'));
    // Named, not `!= 'paid'`, so the status index can serve it.
    if (query.paid === 'unpaid')
      conditions.push(
        eb(
          'status',
          'in',
          orderStatuses.filter((status) => status !== 'paid'),
        ),
      );
    if (query.payment) conditions.push(paymentCondition(eb, query.payment));
    if (query.fulfilment) conditions.push(eb('fulfilment', '=', query.fulfilment));
    if (query.waiting === 'dispatch') conditions.push(waitingToDispatch(eb));
    if (query.provider) conditions.push(eb('payment_provider', '=', query.provider));
    if (query.from) conditions.push(eb('created_at', '>=', query.from));
    // A day's orders are all those before the next day begins.
    if (query.to) conditions.push(eb('created_at', '<', nextDay(query.to)));
    if (query.q) conditions.push(searchCondition(eb, query.q));
    return eb.and(conditions);
  });
}

function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

const summaryColumns = [
  'id',
  'order_number',
  'created_at',
  'status',
  'fulfilment',
  'firstname',
  'lastname',
  'email',
  'delivery_postcode',
  'total_including_delivery',
  'refunded_total',
  'payment_provider',
] as const;

export async function listOrders(db: Kysely<Database>, query: OrderListQuery & { page: number; pageSize: number }) {
  const [sortColumn, direction] = (
    {
      newest: ['id', 'desc'],
      oldest: ['id', 'asc'],
      'total-high': ['total_including_delivery', 'desc'],
      'total-low': ['total_including_delivery', 'asc'],
    } as const
  )[query.sort ?? 'newest'];
  const rows = await filtered(db, query)
    .select(summaryColumns)
    .orderBy(sortColumn, direction)
    .orderBy('id', direction)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const { n } = await filtered(db, query)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export function findOrderByNumber(db: Kysely<Database>, orderNumber: number) {
  return db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
}

const lineColumns = [
  'order_lines.id',
  'order_lines.product_id',
  'order_lines.product_stock_id',
  'order_lines.title',
  'order_lines.size_name',
  'order_lines.unit_price',
  'order_lines.quantity',
  'order_lines.line_total',
  'order_lines.dispatched',
] as const;

/**
 * The lines of these orders, each with the units refunds have put back in stock so far (`restocked`),
 * of those the ones that had been sent and came back (`returned`), and the units refunds not yet
 * settled hold to put back (refund requests neither refused nor put back).
 * One statement, so both are read as of one moment.
 */
export function findLinesWithUnits(db: Kysely<Database>, orderIds: readonly number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('order_lines')
    .leftJoin('order_refund_lines', 'order_refund_lines.order_line_id', 'order_lines.id')
    .select([...lineColumns, 'order_lines.order_id'])
    .select((eb) =>
      eb.fn.coalesce(eb.fn.sum<number | string>('order_refund_lines.quantity'), eb.val(0)).as('restocked'),
    )
    .select((eb) =>
      eb.fn
        .coalesce(eb.fn.sum<number | string>('order_refund_lines.returned_after_dispatch'), eb.val(0))
        .as('returned'),
    )
    .select((eb) => heldOf(eb).as('reserved'))
    .where('order_lines.order_id', 'in', [...orderIds])
    .groupBy([...lineColumns, 'order_lines.order_id'])
    .orderBy('order_lines.id')
    .execute();
}

/** An order's lines, with the units refunds have put back and those refunds in flight hold. */
export function findOrderLinesWithRestocked(db: Kysely<Database>, orderId: number) {
  return findLinesWithUnits(db, [orderId]);
}

export function findOrderRefunds(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('order_refunds').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

export function findPaymentEvents(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('payment_events')
    .select(['id', 'provider', 'provider_status', 'outcome', 'received_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

/** Payments the order received and should not keep, for staff to refund. */
export function findPaymentsToRefund(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('payments_to_refund').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

/**
 * Moves a paid order's fulfilment on, if it is where the move starts from, of a kind the move is
 * for, and (unless the move allows it) not refunded in full: of two staff making the move at once,
 * or one refunding in full while the other makes it, exactly one changes the row.
 */
export async function changeFulfilment(
  trx: Kysely<Database>,
  orderId: number,
  move: { from: readonly Fulfilment[]; to: Fulfilment; kinds: readonly DeliveryKind[]; whileRefundedInFull: boolean },
  set: { carrier?: string; tracking_number?: string; dispatched_at?: string; delivered_at?: string },
  now: string,
): Promise<boolean> {
  let update = trx
    .updateTable('orders')
    .set({ fulfilment: move.to, ...set, updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'paid')
    .where('fulfilment', 'in', move.from)
    .where('delivery_kind', 'in', move.kinds);
  if (!move.whileRefundedInFull) update = update.where(notRefundedInFull);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes the order's row for a fulfilment move without moving it yet, on the same conditions as
 * changeFulfilment: on PostgreSQL the update locks the row until the transaction ends, so a second
 * dispatch of the same order waits and then reads what this one sent. False when the move cannot
 * be made.
 */
export async function claimForFulfilment(
  trx: Kysely<Database>,
  orderId: number,
  move: { from: readonly Fulfilment[]; kinds: readonly DeliveryKind[]; whileRefundedInFull: boolean },
  now: string,
): Promise<boolean> {
  let update = trx
    .updateTable('orders')
    .set({ updated_at: now })
    .where('id', '=', orderId)
    .where('status', '=', 'paid')
    .where('fulfilment', 'in', move.from)
    .where('delivery_kind', 'in', move.kinds);
  if (!move.whileRefundedInFull) update = update.where(notRefundedInFull);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Units of a line refunds put back in stock before they were sent, as a subquery of order_lines:
 * units sent that came back (returned_after_dispatch) were sent, so they take nothing more from
 * what is still to send.
 */
const unsentRestockedOf = (eb: ExpressionBuilder<Database, 'order_lines'>) =>
  eb.fn.coalesce(
    eb
      .selectFrom('order_refund_lines')
      .select((sub) =>
        sub.fn
          .sum<number>(sub('order_refund_lines.quantity', '-', sub.ref('order_refund_lines.returned_after_dispatch')))
          .as('units'),
      )
      .whereRef('order_refund_lines.order_line_id', '=', 'order_lines.id'),
    eb.val(0),
  );

/**
 * Units of a line that refunds not yet settled hold to put back in stock (their requests neither
 * refused nor settled), as a subquery of order_lines: not to be sent while the provider decides.
 */
const heldOf = (eb: ExpressionBuilder<Database, 'order_lines'>) =>
  eb.fn.coalesce(
    eb
      .selectFrom('refund_request_lines')
      .innerJoin('refund_requests', 'refund_requests.id', 'refund_request_lines.refund_request_id')
      .select((sub) => sub.fn.sum<number>('refund_request_lines.quantity').as('held'))
      .whereRef('refund_request_lines.order_line_id', '=', 'order_lines.id')
      .where('refund_requests.status', '!=', 'refused'),
    eb.val(0),
  );

/**
 * Counts `quantity` more units of a line as sent, if that many are still to send (ordered, less
 * those sent, those put back in stock before they were sent and those a refund in flight holds): one conditional update,
 * so two dispatches at once never send more than the line has. False when they are not.
 */
export async function addDispatchedUnits(
  trx: Kysely<Database>,
  orderId: number,
  lineId: number,
  quantity: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('order_lines')
    .set((eb) => ({ dispatched: eb('dispatched', '+', quantity) }))
    .where('id', '=', lineId)
    .where('order_id', '=', orderId)
    .where((eb) =>
      eb(
        eb(eb(eb('dispatched', '+', quantity), '+', unsentRestockedOf(eb)), '+', heldOf(eb)),
        '<=',
        eb.ref('quantity'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A fulfilment with its lines and parcels; its id. */
export async function insertFulfilment(
  trx: Kysely<Database>,
  fulfilment: {
    orderId: number;
    method: 'tracked' | 'untracked';
    service: string | null;
    at: string;
    staff: { id: number; email: string };
    lines: ReadonlyArray<{ lineId: number; quantity: number }>;
    parcels: ReadonlyArray<{ carrier: string; trackingNumber: string }>;
  },
): Promise<number> {
  const { id } = await trx
    .insertInto('fulfilments')
    .values({
      order_id: fulfilment.orderId,
      method: fulfilment.method,
      service: fulfilment.service,
      created_at: fulfilment.at,
      staff_id: fulfilment.staff.id,
      staff_email: fulfilment.staff.email,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('fulfilment_lines')
    .values(
      fulfilment.lines.map((line) => ({ fulfilment_id: id, order_line_id: line.lineId, quantity: line.quantity })),
    )
    .execute();
  if (fulfilment.parcels.length > 0)
    await trx
      .insertInto('fulfilment_parcels')
      .values(
        fulfilment.parcels.map((parcel) => ({
          fulfilment_id: id,
          carrier: parcel.carrier,
          tracking_number: parcel.trackingNumber,
        })),
      )
      .execute();
  return id;
}

/** An order's fulfilments, oldest first, with their lines and parcels. */
export async function findFulfilments(db: Kysely<Database>, orderId: number) {
  const fulfilments = await db
    .selectFrom('fulfilments')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  if (fulfilments.length === 0) return [];
  const ids = fulfilments.map((fulfilment) => fulfilment.id);
  const [lines, parcels] = await Promise.all([
    db
      .selectFrom('fulfilment_lines')
      .innerJoin('order_lines', 'order_lines.id', 'fulfilment_lines.order_line_id')
      .select([
        'fulfilment_lines.fulfilment_id',
        'fulfilment_lines.order_line_id',
        'fulfilment_lines.quantity',
        'order_lines.title',
        'order_lines.size_name',
      ])
      .where('fulfilment_lines.fulfilment_id', 'in', ids)
      .orderBy('fulfilment_lines.order_line_id')
      .execute(),
    db.selectFrom('fulfilment_parcels').selectAll().where('fulfilment_id', 'in', ids).orderBy('id').execute(),
  ]);
  return fulfilments.map((fulfilment) => ({
    ...fulfilment,
    lines: lines.filter((line) => line.fulfilment_id === fulfilment.id),
    parcels: parcels.filter((parcel) => parcel.fulfilment_id === fulfilment.id),
  }));
}

/**
 * A partially dispatched order whose last units to send were put back in stock by a refund before
 * they were sent (units sent and returned do not count: they were sent) has nothing more to send: it is dispatched. One conditional update; false when it was not so.
 */
export async function settleWhenNothingLeftToDispatch(
  trx: Kysely<Database>,
  orderId: number,
  move: { from: readonly Fulfilment[]; to: Fulfilment; kinds: readonly DeliveryKind[] },
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ fulfilment: move.to })
    .where('id', '=', orderId)
    .where('fulfilment', 'in', move.from)
    .where('delivery_kind', 'in', move.kinds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('order_lines')
            .select('order_lines.id')
            .whereRef('order_lines.order_id', '=', 'orders.id')
            .where((eb) =>
              eb(eb(eb.ref('order_lines.dispatched'), '+', unsentRestockedOf(eb)), '<', eb.ref('order_lines.quantity')),
            ),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Adds a refund to a paid order's refunded total if the total stays within what was paid, in one
 * conditional update (on PostgreSQL it also locks the order's row until the transaction ends, so a
 * second refund at the same moment waits and then sees this one).
 */
export async function addToRefundedTotal(
  trx: Kysely<Database>,
  orderId: number,
  amount: number,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set((eb) => ({ refunded_total: eb('refunded_total', '+', amount), updated_at: now }))
    .where('id', '=', orderId)
    .where('status', '=', 'paid')
    .where((eb) => eb(eb('refunded_total', '+', amount), '<=', eb.ref('total_including_delivery')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * PayPal Standard's refunds are made in PayPal's pages, recorded by staff and reported by PayPal's
 * IPN too: the two are one refund. These find and pair them, by order and amount, so it is counted
 * once whichever comes first (docs/back-office.md#orders).
 */
export const STAFF_RECORDED_REFUND = 'recorded by staff';

/** A refund of this amount staff recorded for the order that no IPN has reported yet. */
export async function findUnreportedStaffRefund(
  trx: Kysely<Database>,
  orderId: number,
  amount: number,
): Promise<number | undefined> {
  const row = await trx
    .selectFrom('order_refunds')
    .select('id')
    .where('order_id', '=', orderId)
    .where('kind', '=', 'refund')
    .where('provider', '=', 'manual')
    .where('provider_reference', '=', STAFF_RECORDED_REFUND)
    .where('amount', '=', amount)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** The IPN reported a refund staff had recorded: the row takes PayPal's name and transaction id. */
export async function markStaffRefundReported(
  trx: Kysely<Database>,
  refundId: number,
  report: { provider: string; reference: string },
): Promise<boolean> {
  const result = await trx
    .updateTable('order_refunds')
    .set({ provider: report.provider, provider_reference: report.reference.slice(0, 64) })
    .where('id', '=', refundId)
    .where('provider', '=', 'manual')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims for staff recording it a refund of this amount the provider reported for the order (its
 * note, empty until staff claim it, takes their reason); the claimed row's id, or undefined.
 */
export async function claimReportedRefund(
  trx: Kysely<Database>,
  refund: { orderId: number; provider: string; amount: number; note: string },
): Promise<number | undefined> {
  const row = await trx
    .selectFrom('order_refunds')
    .select('id')
    .where('order_id', '=', refund.orderId)
    .where('kind', '=', 'refund')
    .where('provider', '=', refund.provider)
    .where('amount', '=', refund.amount)
    .where('note', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const result = await trx
    .updateTable('order_refunds')
    .set({ note: refund.note })
    .where('id', '=', row.id)
    .where('note', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row.id : undefined;
}

export async function insertRecordedRefund(
  trx: Kysely<Database>,
  refund: { orderId: number; amount: number; note: string; at: string },
): Promise<number> {
  const row = await trx
    .insertInto('order_refunds')
    .values({
      order_id: refund.orderId,
      kind: 'refund',
      amount: refund.amount,
      provider: 'manual',
      provider_reference: STAFF_RECORDED_REFUND,
      recorded_at: refund.at,
      note: refund.note,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertRefundLine(
  trx: Kysely<Database>,
  line: { refundId: number; orderLineId: number; quantity: number; returnedAfterDispatch: number },
): Promise<void> {
  await trx
    .insertInto('order_refund_lines')
    .values({
      refund_id: line.refundId,
      order_line_id: line.orderLineId,
      quantity: line.quantity,
      returned_after_dispatch: line.returnedAfterDispatch,
    })
    .execute();
}

/** The units a refund request holds to put back in stock once the refund is made. */
export async function insertRefundRequestLines(
  trx: Kysely<Database>,
  refundRequestId: number,
  restock: ReadonlyArray<{ lineId: number; quantity: number; returnedAfterDispatch: number }>,
): Promise<void> {
  if (restock.length === 0) return;
  await trx
    .insertInto('refund_request_lines')
    .values(
      restock.map(({ lineId, quantity, returnedAfterDispatch }) => ({
        refund_request_id: refundRequestId,
        order_line_id: lineId,
        quantity,
        returned_after_dispatch: returnedAfterDispatch,
      })),
    )
    .execute();
}

/**
 * Removes a refund request's held units and answers them, for the caller to put back in stock.
 * Of two transactions doing it at once only one gets them (the other's delete finds none), so
 * they go back once.
 */
export async function takeRefundRequestLines(
  trx: Kysely<Database>,
  refundRequestId: number,
): Promise<Array<{ lineId: number; quantity: number; returnedAfterDispatch: number }>> {
  const rows = await trx
    .deleteFrom('refund_request_lines')
    .where('refund_request_id', '=', refundRequestId)
    .returning(['order_line_id', 'quantity', 'returned_after_dispatch'])
    .execute();
  return rows.map((row) => ({
    lineId: row.order_line_id,
    quantity: row.quantity,
    returnedAfterDispatch: row.returned_after_dispatch,
  }));
}

/**
 * One batch of the orders CSV: the list's filters, newest first, after the last id of the batch
 * before (keyset paging, so the thousandth batch costs what the first does).
 */
export function ordersForExport(
  db: Kysely<Database>,
  query: OrderListQuery,
  beforeId: number | undefined,
  limit: number,
) {
  let select = filtered(db, query).selectAll();
  if (beforeId !== undefined) select = select.where('id', '<', beforeId);
  return select.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Takes a cancelled reversal's amount off a paid order's refunded total, in one conditional update:
 * at most what reversals took and earlier cancellations have not given back (order_refunds), so a
 * cancellation never undoes a refund, nor one reversal twice.
 */
export async function takeFromRefundedTotal(
  trx: Kysely<Database>,
  orderId: number,
  amount: number,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set((eb) => ({ refunded_total: eb('refunded_total', '-', amount), updated_at: now }))
    .where('id', '=', orderId)
    .where('status', '=', 'paid')
    .where('refunded_total', '>=', amount)
    // What reversals took and no cancellation has given back yet: refunds are not the provider's to undo.
    .where((eb) =>
      eb(
        eb
          .selectFrom('order_refunds')
          .select(
            sql<number>`coalesce(sum(case kind when 'reversal' then amount when 'reversal_cancelled' then -amount else 0 end), 0)`.as(
              'outstanding',
            ),
          )
          .where('order_id', '=', orderId),
        '>=',
        amount,
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Orders for packing: the one with that number, or every paid order still to dispatch (not
 * refunded in full), oldest first, at most `limit`.
 */
export function findOrdersToPack(db: Kysely<Database>, which: { orderNumber: number } | { limit: number }) {
  const query = db.selectFrom('orders').selectAll();
  if ('orderNumber' in which) return query.where('order_number', '=', which.orderNumber).execute();
  return query.where(waitingToDispatch).orderBy('id').limit(which.limit).execute();
}

/**
 * Changes where an order goes and how its customer is reached, in one conditional update: false
 * when its fulfilment is not one of `while` (it has left) or it was never placed for good
 * (cancelled, expired).
 */
export async function setDeliveryDetails(
  trx: Kysely<Database>,
  orderId: number,
  details: {
    delivery_line1: string;
    delivery_line2: string;
    delivery_line3: string;
    delivery_town_city: string;
    delivery_postcode: string;
    contact_number: string;
    email: string;
    email_key: string;
  },
  whileFulfilment: readonly Fulfilment[],
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('orders')
    .set({ ...details, updated_at: now })
    .where('id', '=', orderId)
    .where('fulfilment', 'in', whileFulfilment)
    .where('status', 'in', ['pending_payment', 'payment_failed', 'paid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims paid orders the shop has not been told of, oldest first, at most `limit`: marked told at
 * `now` by a conditional update, so of two instances claiming at once each order goes to one.
 */
export async function claimOrdersToNotify(trx: Kysely<Database>, now: string, limit: number) {
  const waiting = await trx
    .selectFrom('orders')
    .select('id')
    .where('shop_notified_at', 'is', null)
    .where('status', '=', 'paid')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (waiting.length === 0) return [];
  return trx
    .updateTable('orders')
    .set({ shop_notified_at: now })
    .where(
      'id',
      'in',
      waiting.map((order) => order.id),
    )
    .where('shop_notified_at', 'is', null)
    .returning([
      'order_number',
      'firstname',
      'lastname',
      'total_including_delivery',
      'delivery_method_name',
      'delivery_postcode',
      'paid_at',
    ])
    .execute()
    .then((rows) => rows.sort((a, b) => a.order_number - b.order_number));
}

/** Refund requests a shopper's cancellation made are named by this prefix (src/server/cancellation). */
export const CANCELLATION_REQUEST_PREFIX = 'cancel-';

/** Whether a shopper's cancellation of the order waits for its provider to confirm the refund. */
export async function hasPendingCancellation(db: Kysely<Database>, orderId: number): Promise<boolean> {
  const row = await db
    .selectFrom('refund_requests')
    .select('id')
    .where('order_id', '=', orderId)
    .where('request_id', 'like', `${CANCELLATION_REQUEST_PREFIX}%`)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Units of an order its shopper cancelled, per line: those cancellations in flight hold and those
 * settled ones put back in stock (a cancellation's refund request, by its prefix, and the refund
 * recorded under the request's provider reference). What staff are told when a dispatch of them is
 * refused.
 */
export async function findCancelledUnits(db: Kysely<Database>, orderId: number) {
  const held = await db
    .selectFrom('refund_request_lines')
    .innerJoin('refund_requests', 'refund_requests.id', 'refund_request_lines.refund_request_id')
    .select(['refund_request_lines.order_line_id', 'refund_request_lines.quantity'])
    .where('refund_requests.order_id', '=', orderId)
    .where('refund_requests.request_id', 'like', `${CANCELLATION_REQUEST_PREFIX}%`)
    .where('refund_requests.status', '!=', 'refused')
    .execute();
  const putBack = await db
    .selectFrom('order_refund_lines')
    .innerJoin('order_refunds', 'order_refunds.id', 'order_refund_lines.refund_id')
    .innerJoin('refund_requests', (join) =>
      join
        .onRef('refund_requests.provider_reference', '=', 'order_refunds.provider_reference')
        .onRef('refund_requests.order_id', '=', 'order_refunds.order_id'),
    )
    .select(['order_refund_lines.order_line_id', 'order_refund_lines.quantity'])
    .where('order_refunds.order_id', '=', orderId)
    .where('refund_requests.request_id', 'like', `${CANCELLATION_REQUEST_PREFIX}%`)
    .where('refund_requests.status', '=', 'refunded')
    .execute();
  const lines = await db
    .selectFrom('order_lines')
    .select(['id', 'title', 'size_name'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  const units = new Map<number, number>();
  for (const row of [...held, ...putBack])
    units.set(row.order_line_id, (units.get(row.order_line_id) ?? 0) + row.quantity);
  return lines.filter((line) => units.has(line.id)).map((line) => ({ ...line, quantity: units.get(line.id)! }));
}

/** The units a refund request held (kept after it is settled or released), with their lines' names. */
export function findRefundRequestUnits(db: Kysely<Database>, refundRequestId: number) {
  return db
    .selectFrom('refund_request_lines')
    .innerJoin('order_lines', 'order_lines.id', 'refund_request_lines.order_line_id')
    .select(['order_lines.title', 'order_lines.size_name', 'refund_request_lines.quantity'])
    .where('refund_request_lines.refund_request_id', '=', refundRequestId)
    .orderBy('order_lines.id')
    .execute();
}

/** Refund requests a return's refund made: `return-<return id>-<uuid>` (src/server/returns). */
export const RETURN_REQUEST_PREFIX = 'return-';

export const returnRefundRequestId = (returnId: number, unique: string) =>
  `${RETURN_REQUEST_PREFIX}${returnId}-${unique}`;

/** The return a refund request was made for, read from its id; undefined for any other refund. */
export function returnOfRefundRequest(requestId: string): number | undefined {
  const match = /^return-(\d+)-/.exec(requestId);
  return match ? Number(match[1]) : undefined;
}

/**
 * The goods' worth (at their unit prices, before the voucher) refunds have taken back from an order
 * already: units refunds put back or hold, and units of refunded returns not put back. A refund's
 * voucher share runs on from it (voucherShareOf), so the shares add up to the whole discount.
 */
export async function goodsTakenBack(db: Kysely<Database>, orderId: number, exceptReturnId?: number): Promise<number> {
  const lines = await findOrderLinesWithRestocked(db, orderId);
  const restocked = lines.reduce(
    (sum, line) => sum + line.unit_price * (Number(line.restocked) + Number(line.reserved)),
    0,
  );
  let kept = db
    .selectFrom('return_lines')
    .innerJoin('returns', 'returns.id', 'return_lines.return_id')
    .innerJoin('order_lines', 'order_lines.id', 'return_lines.order_line_id')
    .select(['order_lines.unit_price', 'return_lines.quantity', 'return_lines.restocked'])
    .where('returns.order_id', '=', orderId)
    .where('returns.status', '=', 'refunded');
  if (exceptReturnId !== undefined) kept = kept.where('returns.id', '!=', exceptReturnId);
  const notPutBack = (await kept.execute()).reduce(
    (sum, line) => sum + line.unit_price * (line.quantity - (line.restocked ?? 0)),
    0,
  );
  return restocked + notPutBack;
}

/**
 * Whether a shipping label is being made or waits to be sent for this order (shipping/, migration
 * 0037): its address is printed on it, so the address is not changed under it.
 */
export async function hasLabelWaiting(db: Kysely<Database>, orderId: number): Promise<boolean> {
  const row = await db
    .selectFrom('shipping_labels')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', 'in', ['creating', 'created'])
    .executeTakeFirst();
  return row !== undefined;
}
