import type { Kysely, Selectable } from 'kysely';
import type { OrderListQuery } from '../../contract/admin/orders.ts';
import type { Database, OrderTable } from '../db/schema.ts';
import { penceToDecimal } from '../../contract/money.ts';
import { fulfilmentLabels, paymentStatusLabels, paymentStatusOf } from '../../contract/order-status.ts';
import { ordersForExport } from './orders.admin-repository.ts';

/**
 * The orders CSV for the accountant (docs/back-office.md#orders): one row per order, its payment
 * and fulfilment as people read them, amounts in pounds with two decimals, VAT in its own column. RFC 4180 quoting; a cell that a spreadsheet
 * would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an apostrophe.
 */
export const csvHeader = [
  'Order number',
  'Placed',
  'Paid',
  'Payment',
  'Fulfilment',
  'Customer',
  'E-mail',
  'Delivery postcode',
  'Delivery country',
  'Items',
  'Discount',
  'Voucher',
  'Delivery',
  'Net (excl. VAT)',
  'VAT',
  'Total',
  'Refunded',
  'Provider',
  'Transaction',
];

function cell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: Array<string | number | null>): string {
  return `${values.map(cell).join(',')}\r\n`;
}

export function orderCsvLine(order: Selectable<OrderTable>): string {
  return csvLine([
    order.order_number,
    order.created_at,
    order.paid_at,
    paymentStatusLabels[
      paymentStatusOf({
        status: order.status,
        total: order.total_including_delivery,
        refundedTotal: order.refunded_total,
      })
    ],
    fulfilmentLabels[order.fulfilment],
    `${order.firstname} ${order.lastname}`,
    order.email,
    order.delivery_postcode,
    order.delivery_country_name,
    penceToDecimal(order.items_total),
    penceToDecimal(order.discount_amount),
    order.voucher_code,
    penceToDecimal(order.delivery_price),
    penceToDecimal(order.total_including_delivery - order.total_vat),
    penceToDecimal(order.total_vat),
    penceToDecimal(order.total_including_delivery),
    penceToDecimal(order.refunded_total),
    order.payment_provider,
    order.transaction_id,
  ]);
}

/** How many orders the CSV reads at once. */
const CSV_BATCH = 1_000;

/** The list's orders as CSV, every page of them, a batch at a time (the newest first, as the list). */
export async function* ordersCsv(
  db: Kysely<Database>,
  query: OrderListQuery,
  batchSize = CSV_BATCH,
): AsyncGenerator<string> {
  yield csvLine(csvHeader);
  let beforeId: number | undefined;
  for (;;) {
    const batch = await ordersForExport(db, query, beforeId, batchSize);
    for (const order of batch) yield orderCsvLine(order);
    if (batch.length < batchSize) return;
    beforeId = batch.at(-1)!.id;
  }
}
