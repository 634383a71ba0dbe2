import type { Kysely } from 'kysely';
import type { LabelStatus } from '../../contract/admin/shipping.ts';
import { isUniqueViolation } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { waitingToDispatch } from '../orders/orders.admin-repository.ts';

/** Shipping labels (migration 0037): the orders they are made for, and each attempt's row. */

type Db = Kysely<Database>;

/** Most orders the labels page lists, oldest first (as the batch of packing slips). */
export const MAX_LABEL_QUEUE = 500;

/** What a label needs of these orders: where they go, how, and whether they still wait to be sent. */
export function findOrdersForLabels(db: Db, which: { orderIds: readonly number[] } | 'waiting') {
  let query = db
    .selectFrom('orders as o')
    .leftJoin('delivery_methods as m', 'm.id', 'o.delivery_method_id')
    .leftJoin('countries as c', 'c.id', 'o.delivery_country_id')
    .select([
      'o.id',
      'o.order_number',
      'o.firstname',
      'o.lastname',
      'o.email',
      'o.contact_number',
      'o.delivery_line1',
      'o.delivery_line2',
      'o.delivery_line3',
      'o.delivery_town_city',
      'o.delivery_postcode',
      'o.delivery_method_name',
      'o.delivery_kind',
      'o.items_total',
      'o.discount_amount',
      'o.delivery_price',
      'o.total_including_delivery',
      'o.created_at',
      'o.fulfilment',
      'm.carrier_service',
      'm.package_format',
      'c.iso_code',
    ])
    .select((eb) =>
      eb
        .case()
        .when(waitingToDispatch(eb as never))
        .then(1)
        .else(0)
        .end()
        .as('waiting'),
    );
  if (which === 'waiting')
    query = query
      .where((eb) => waitingToDispatch(eb as never))
      .orderBy('o.id')
      .limit(MAX_LABEL_QUEUE);
  else query = query.where('o.id', 'in', which.orderIds.length > 0 ? [...which.orderIds] : [0]);
  return query.execute();
}

/** Each size's weight and box: its preset's, or its own sides. */
export function findParcelFacts(db: Db, stockIds: readonly number[]) {
  if (stockIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('product_stocks as s')
    .leftJoin('packagings as p', 'p.id', 's.packaging_id')
    .select([
      's.id',
      's.weight_grams',
      's.length_mm',
      's.width_mm',
      's.height_mm',
      'p.length_mm as box_length_mm',
      'p.width_mm as box_width_mm',
      'p.height_mm as box_height_mm',
      'p.weight_grams as box_weight_grams',
    ])
    .where('s.id', 'in', [...new Set(stockIds)])
    .execute();
}

/** The newest label row of each of these orders. */
export function findNewestLabels(db: Db, orderIds: readonly number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('shipping_labels as l')
    .selectAll('l')
    .where('l.order_id', 'in', [...orderIds])
    .where((eb) =>
      eb(
        'l.id',
        '=',
        eb
          .selectFrom('shipping_labels as n')
          .select((n) => n.fn.max('n.id').as('id'))
          .whereRef('n.order_id', '=', 'l.order_id'),
      ),
    )
    .execute();
}

/**
 * Staff's changes of these orders' delivery details made after `since` (their audit entries,
 * order-moves.admin-service.ts's `order.delivery-details`): what each was changed to and from.
 */
export function findDeliveryDetailChanges(db: Db, orderNumbers: readonly number[], since: string) {
  if (orderNumbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('audit_log')
    .select(['entity_id', 'at', 'after'])
    .where('entity_type', '=', 'order')
    .where('entity_id', 'in', orderNumbers.map(String))
    .where('action', '=', 'order.delivery-details')
    .where('at', '>', since)
    .execute();
}

export interface NewLabel {
  order_id: number;
  service: string;
  package_format: string;
  weight_grams: number;
  staff_email: string;
  /** Its own reference in the carrier (labelReference in labels.admin-service.ts). */
  carrier_reference: string;
  at: string;
}

/**
 * Starts an order's label: false when one is already being made or waits to be sent (the partial
 * unique index of migration 0037 refuses a second), so two members at once never buy two.
 */
export async function startLabel(db: Db, label: NewLabel): Promise<number | undefined> {
  try {
    const row = await db
      .insertInto('shipping_labels')
      .values({
        order_id: label.order_id,
        status: 'creating',
        service: label.service,
        package_format: label.package_format,
        weight_grams: label.weight_grams,
        staff_email: label.staff_email,
        carrier_reference: label.carrier_reference,
        created_at: label.at,
        updated_at: label.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** Moves a label on, only from the status it is expected in; answers whether it moved. */
export async function moveLabel(
  db: Db,
  id: number,
  from: readonly LabelStatus[],
  to: {
    status: LabelStatus;
    carrier_order_id?: number;
    tracking_number?: string | null;
    error?: string | null;
    fulfilment_id?: number | null;
  },
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('shipping_labels')
    .set({ ...to, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The label rows waiting to be sent (creating or created) of these orders. */
export function findLiveLabels(db: Db, orderIds: readonly number[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('shipping_labels')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .where('status', 'in', ['creating', 'created'])
    .execute();
}

/** The newest fulfilment of an order (the one a dispatch just made). */
export async function newestFulfilmentId(db: Db, orderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('fulfilments')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return row?.id ?? null;
}
