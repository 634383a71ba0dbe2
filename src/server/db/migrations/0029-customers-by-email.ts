import { sql, type Kysely } from 'kysely';

/**
 * A customer is an e-mail address with orders, registered or not (docs/back-office.md#customers):
 * the back office gathers an account's orders by `customer_id`, and walks guests' addresses in
 * order (`customer_id` null, then `lower(email)`), so a page of customers by e-mail address reads
 * only the index; it finds guests by the first line of either address, in any case.
 * src/server/accounts/customer-list.admin-repository.ts uses the same expressions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_customer_email_idx on orders (customer_id, lower(email))`.execute(db);
  await db.schema
    .createIndex('orders_delivery_line1_lower_idx')
    .on('orders')
    .expression(sql`lower(delivery_line1)`)
    .execute();
  await db.schema
    .createIndex('orders_billing_line1_lower_idx')
    .on('orders')
    .expression(sql`lower(billing_line1)`)
    .execute();
}
