import type { Kysely, Selectable } from 'kysely';
import type { Database, ReturnCondition, ReturnReason, ReturnStatus, ReturnTable } from '../db/schema.ts';

/** The SQL of returns (docs/rules.md#returns). */

export type ReturnRow = Selectable<ReturnTable>;

/** The order a return is for, with what its window and refund need. */
export function findReturnOrder(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('orders')
    .leftJoin('delivery_methods', 'delivery_methods.id', 'orders.delivery_method_id')
    .select([
      'orders.id',
      'orders.order_number',
      'orders.status',
      'orders.email',
      'orders.firstname',
      'orders.lastname',
      'orders.delivered_at',
      'orders.items_total',
      'orders.discount_amount',
      'orders.delivery_price',
      'orders.delivery_country_id',
      'orders.delivery_kind',
      'orders.fulfilment',
      'orders.total_including_delivery',
      'orders.refunded_total',
      'orders.holds_stock',
      'orders.link_version',
      'delivery_methods.transit_days',
    ])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
}
export type ReturnOrder = NonNullable<Awaited<ReturnType<typeof findReturnOrder>>>;

/** An order's lines, with whether each product is made to order. */
export function findReturnLines(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('order_lines')
    .leftJoin('products', 'products.id', 'order_lines.product_id')
    .select([
      'order_lines.id',
      'order_lines.title',
      'order_lines.size_name',
      'order_lines.unit_price',
      'order_lines.quantity',
      'order_lines.line_total',
      'products.made_to_order',
    ])
    .where('order_lines.order_id', '=', orderId)
    .orderBy('order_lines.id')
    .execute();
}

/** Each fulfilment's units of the order's lines, with when it went. */
export function findSentUnits(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('fulfilment_lines')
    .innerJoin('fulfilments', 'fulfilments.id', 'fulfilment_lines.fulfilment_id')
    .select(['fulfilment_lines.order_line_id', 'fulfilment_lines.quantity', 'fulfilments.created_at'])
    .where('fulfilments.order_id', '=', orderId)
    .execute();
}

/**
 * A collected collection order's units: every unit of each line, handed over when it was collected
 * (the collect move records that moment as the order's delivered_at). A collection order has no
 * fulfilments, and none of its units reached the customer before it is collected.
 */
export function findCollectedUnits(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('order_lines')
    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
    .select(['order_lines.id as order_line_id', 'order_lines.quantity', 'orders.delivered_at as created_at'])
    .where('orders.id', '=', orderId)
    .where('orders.delivery_kind', '=', 'collection')
    .where('orders.fulfilment', '=', 'collected')
    .where('orders.delivered_at', 'is not', null)
    .$narrowType<{ created_at: string }>()
    .execute();
}

/** Units of each line in the order's returns that were not refused. */
export async function unitsInReturns(db: Kysely<Database>, orderId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('return_lines')
    .innerJoin('returns', 'returns.id', 'return_lines.return_id')
    .select(['return_lines.order_line_id'])
    .select((eb) => eb.fn.sum<number | string>('return_lines.quantity').as('units'))
    .where('returns.order_id', '=', orderId)
    .where('returns.status', '!=', 'refused')
    .groupBy('return_lines.order_line_id')
    .execute();
  return new Map(rows.map((row) => [row.order_line_id, Number(row.units)]));
}

/**
 * Units of each line refunds put back in stock (settled, or held by one in flight), less those
 * refunded returns restocked: the units refunds other than returns took back.
 */
export async function unitsRestockedByOtherRefunds(
  db: Kysely<Database>,
  orderId: number,
): Promise<Map<number, number>> {
  const settled = await db
    .selectFrom('order_refund_lines')
    .innerJoin('order_lines', 'order_lines.id', 'order_refund_lines.order_line_id')
    .select(['order_refund_lines.order_line_id as line'])
    .select((eb) => eb.fn.sum<number | string>('order_refund_lines.quantity').as('units'))
    .where('order_lines.order_id', '=', orderId)
    .groupBy('order_refund_lines.order_line_id')
    .execute();
  const held = await db
    .selectFrom('refund_request_lines')
    .innerJoin('order_lines', 'order_lines.id', 'refund_request_lines.order_line_id')
    .select(['refund_request_lines.order_line_id as line'])
    .select((eb) => eb.fn.sum<number | string>('refund_request_lines.quantity').as('units'))
    .where('order_lines.order_id', '=', orderId)
    .groupBy('refund_request_lines.order_line_id')
    .execute();
  const byReturns = await db
    .selectFrom('return_lines')
    .innerJoin('returns', 'returns.id', 'return_lines.return_id')
    .select(['return_lines.order_line_id as line'])
    .select((eb) => eb.fn.sum<number | string>('return_lines.restocked').as('units'))
    .where('returns.order_id', '=', orderId)
    .where('returns.status', '=', 'refunded')
    .groupBy('return_lines.order_line_id')
    .execute();
  const units = new Map<number, number>();
  for (const row of [...settled, ...held]) units.set(row.line, (units.get(row.line) ?? 0) + Number(row.units));
  for (const row of byReturns) units.set(row.line, (units.get(row.line) ?? 0) - Number(row.units ?? 0));
  return units;
}

/** The cheapest standard delivery the order's country had for its goods: what the law refunds. */
export async function standardDeliveryPrice(db: Kysely<Database>, order: ReturnOrder): Promise<number | undefined> {
  const row = await db
    .selectFrom('delivery_methods')
    .select((eb) => eb.fn.min<number>('rate').as('rate'))
    .where('country_id', '=', order.delivery_country_id)
    .where('kind', '=', 'delivery')
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('min_items_total', 'is', null), eb('min_items_total', '<=', order.items_total)]))
    .where((eb) => eb.or([eb('max_items_total', 'is', null), eb('max_items_total', '>=', order.items_total)]))
    .executeTakeFirst();
  return row?.rate === null || row?.rate === undefined ? undefined : Number(row.rate);
}

export function countReturnsOf(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('returns')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

export async function insertReturn(
  db: Kysely<Database>,
  values: { raNumber: string; orderId: number; reason: ReturnReason; note: string; at: string },
  lines: ReadonlyArray<{ orderLineId: number; quantity: number }>,
  photos: ReadonlyArray<{ contentType: 'image/jpeg' | 'image/png' | 'image/webp'; bytes: Buffer }>,
): Promise<number> {
  const { id } = await db
    .insertInto('returns')
    .values({
      ra_number: values.raNumber,
      order_id: values.orderId,
      status: 'requested',
      reason: values.reason,
      note: values.note,
      requested_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const line of lines)
    await db
      .insertInto('return_lines')
      .values({ return_id: id, order_line_id: line.orderLineId, quantity: line.quantity })
      .execute();
  for (const [index, photo] of photos.entries())
    await db
      .insertInto('return_photos')
      .values({
        return_id: id,
        position: index + 1,
        content_type: photo.contentType,
        byte_size: photo.bytes.length,
        bytes: photo.bytes,
        created_at: values.at,
      })
      .execute();
  return id;
}

export function findReturnsOfOrder(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('returns').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

export function findReturn(db: Kysely<Database>, id: number) {
  return db.selectFrom('returns').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findReturnQueue(db: Kysely<Database>, statuses: readonly ReturnStatus[]) {
  return db
    .selectFrom('returns')
    .innerJoin('orders', 'orders.id', 'returns.order_id')
    .selectAll('returns')
    .select(['orders.order_number', 'orders.email', 'orders.firstname', 'orders.lastname'])
    .where('returns.status', 'in', statuses)
    .orderBy((eb) => eb.case().when('returns.refund_due_at', 'is', null).then(1).else(0).end())
    .orderBy('returns.refund_due_at')
    .orderBy('returns.requested_at')
    .limit(500)
    .execute();
}

export function findLinesOfReturns(db: Kysely<Database>, returnIds: readonly number[]) {
  if (returnIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('return_lines')
    .innerJoin('order_lines', 'order_lines.id', 'return_lines.order_line_id')
    .select([
      'return_lines.return_id',
      'return_lines.order_line_id',
      'return_lines.quantity',
      'return_lines.restocked',
      'return_lines.condition',
      'order_lines.title',
      'order_lines.size_name',
      'order_lines.unit_price',
      'order_lines.quantity as line_quantity',
      'order_lines.line_total',
    ])
    .where('return_lines.return_id', 'in', returnIds)
    .orderBy('return_lines.id')
    .execute();
}

export function findPhotoPositions(db: Kysely<Database>, returnIds: readonly number[]) {
  if (returnIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('return_photos')
    .select(['return_id', 'position'])
    .where('return_id', 'in', returnIds)
    .orderBy('position')
    .execute();
}

export function findReturnPhoto(db: Kysely<Database>, returnId: number, position: number) {
  return db
    .selectFrom('return_photos')
    .select(['content_type', 'bytes'])
    .where('return_id', '=', returnId)
    .where('position', '=', position)
    .executeTakeFirst();
}

/** Moves a return on from one of `from` to `to`: one conditional update, so of two staff at once one does it. */
export async function moveReturn(
  db: Kysely<Database>,
  id: number,
  from: readonly ReturnStatus[],
  changes: Partial<Omit<ReturnRow, 'id' | 'order_id' | 'ra_number'>> & { status: ReturnStatus },
): Promise<boolean> {
  const result = await db
    .updateTable('returns')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recordReceipt(
  db: Kysely<Database>,
  returnId: number,
  lines: ReadonlyArray<{ orderLineId: number; restock: number; condition: ReturnCondition }>,
): Promise<void> {
  for (const line of lines)
    await db
      .updateTable('return_lines')
      .set({ restocked: line.restock, condition: line.condition })
      .where('return_id', '=', returnId)
      .where('order_line_id', '=', line.orderLineId)
      .execute();
}
