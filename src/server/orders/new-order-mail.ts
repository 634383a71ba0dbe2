import type { Kysely } from 'kysely';
import { formatPence } from '../../contract/money.ts';
import type { Database } from '../db/schema.ts';
import { insertMail } from '../mail/mail-queue.repository.ts';
import { claimOrdersToNotify } from './orders.admin-repository.ts';

/** The most orders one message to the shop lists; more wait for the next minute's. */
const ORDERS_A_MESSAGE = 50;

/**
 * Tells the shop of its new paid orders by e-mail (docs/back-office.md#orders): every order paid
 * since the last message, in one message, so a busy minute is one e-mail and not fifty. The orders
 * are claimed and the message queued in one transaction: each order is told once, whichever
 * instance runs this, and a message that could not be queued leaves its orders for the next run.
 * Answers how many orders it told of.
 */
export async function mailShopNewOrders(
  db: Kysely<Database>,
  options: { to: string; publicUrl: string; now: () => Date },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const at = options.now().toISOString();
    const orders = await claimOrdersToNotify(trx, at, ORDERS_A_MESSAGE);
    if (orders.length === 0) return 0;
    const total = orders.reduce((sum, order) => sum + order.total_including_delivery, 0);
    await insertMail(
      trx,
      {
        to: options.to,
        subject:
          orders.length === 1
            ? `New order ${orders[0]!.order_number} (${formatPence(total)})`
            : `${orders.length} new orders (${formatPence(total)})`,
        paragraphs: [
          orders.length === 1 ? 'A new order has been paid:' : `${orders.length} new orders have been paid:`,
          orders
            .map(
              (order) =>
                `Order ${order.order_number}: ${order.firstname} ${order.lastname}, ${formatPence(order.total_including_delivery)}, ${order.delivery_method_name} to ${order.delivery_postcode}: ${options.publicUrl}/admin/orders/${order.order_number}`,
            )
            .join('\n'),
        ],
      },
      at,
    );
    return orders.length;
  });
}
