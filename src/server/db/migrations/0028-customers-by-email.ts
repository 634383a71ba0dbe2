import { sql, type Kysely } from 'kysely';

/**
 * A customer is an e-mail address with orders, registered or not (docs/back-office.md#customers):
 * the back office gathers an account's orders by `customer_id` and a guest's by `lower(email)`
 * (migration 0011's index), and finds guests by the first line of either address, in any case.
 * src/server/accounts/customers.admin-repository.ts uses the same expressions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('orders_customer_idx').on('orders').column('customer_id').execute();
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
