import type { Kysely, Selectable } from 'kysely';
import type {
  CustomerDetail,
  CustomerList,
  CustomerListParams,
  CustomerRecord,
  CustomerRow,
  CustomerSummary,
} from '../../contract/admin/customers.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { auditOf, recordAudit } from '../audit/audit.repository.ts';
import { auditView } from '../audit/audit.service.ts';
import type { CustomerTable, Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../errors.ts';
import { summaryOf } from '../orders/orders.admin-service.ts';
import type { Staff } from '../staff/staff.service.ts';
import {
  eraseCustomer,
  findContactMessagesFrom,
  findCustomer,
  findCustomerOrders,
  findOrderLinesOf,
  type DataSubject,
} from './customers.admin-repository.ts';
import { findOrdersOfKey, keyOfRef, listCustomerRows, type CustomerRowData } from './customer-list.admin-repository.ts';
import { awaitingPayment, isOneOf, isWaitingToDispatch } from '../../contract/order-status.ts';
import type { OrderRow } from '../orders/orders.repository.ts';

/**
 * Customers in the back office (docs/back-office.md#customers): find one, see their details and
 * orders, and answer a UK GDPR request: everything held about them as JSON, or erasure.
 */

type Customer = Selectable<CustomerTable>;

export function createCustomersAdminService(db: Kysely<Database>, options: { now?: () => Date } = {}) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  async function customerOrThrow(id: number, trx: Kysely<Database> = db): Promise<Customer> {
    const customer = await findCustomer(trx, id);
    if (!customer) throw new NotFoundError(`There is no customer ${id}`);
    return customer;
  }

  return {
    /** Every e-mail address with orders or an account, registered or a guest, with what they spent. */
    async list(query: CustomerListParams): Promise<CustomerList> {
      const { rows, total } = await listCustomerRows(db, query.q ? { search: query.q } : { all: true }, {
        sort: query.sort,
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { customers: rows.map(customerRow), total, page: query.page, pageSize: query.pageSize };
    },

    /** One customer, guest or registered, by the reference the list gives: their orders and sums. */
    async record(ref: string): Promise<CustomerRecord> {
      const number = Number(ref.slice(1));
      const key = await keyOfRef(db, ref.startsWith('a') ? { account: number } : { order: number });
      if (key === undefined) throw new NotFoundError('There is no such customer');
      const [{ rows }, orders] = await Promise.all([
        listCustomerRows(db, { keys: [key] }, { sort: 'email', limit: 1, offset: 0 }),
        findOrdersOfKey(db, key),
      ]);
      const row = rows[0];
      if (!row) throw new NotFoundError('There is no such customer');
      return { ...customerRow(row), orders: orders.map(summaryOf) };
    },

    async detail(id: number): Promise<CustomerDetail> {
      const customer = await customerOrThrow(id);
      const [orders, audit] = await Promise.all([
        // Once erased, the address is the placeholder its orders were given.
        findCustomerOrders(db, subjectOf(customer)),
        auditOf(db, 'customer', id),
      ]);
      return {
        ...customerSummary(customer),
        firstname: customer.firstname,
        lastname: customer.lastname,
        contactNumber: customer.contact_number,
        billingAddress: {
          line1: customer.billing_line1,
          line2: customer.billing_line2,
          line3: customer.billing_line3,
          townCity: customer.billing_town_city,
          postcode: customer.billing_postcode,
          countryId: customer.billing_country_id,
        },
        deliveryAddress: {
          line1: customer.delivery_line1,
          line2: customer.delivery_line2,
          line3: customer.delivery_line3,
          townCity: customer.delivery_town_city,
          postcode: customer.delivery_postcode,
          countryId: customer.delivery_country_id,
        },
        orders: orders.map(summaryOf),
        audit: audit.map(auditView),
      };
    },

    /** Everything the shop holds about a customer (a subject access request), as one JSON document. */
    async exportData(id: number, staff: Staff): Promise<Record<string, unknown>> {
      const customer = await customerOrThrow(id);
      const subject = subjectOf(customer);
      const orders = await findCustomerOrders(db, subject);
      const lines = await findOrderLinesOf(
        db,
        orders.map((order) => order.id),
      );
      // Messages sent with an address are its owner's: an account that never verified it gets none.
      const messages = subject.verified ? await findContactMessagesFrom(db, customer.email) : [];
      await recordAudit(db, { staff, action: 'customer.export', entityType: 'customer', entityId: id, at: now() });
      const { password_hash: _hash, ...account } = customer;
      return {
        exportedAt: now(),
        account,
        orders: orders.map(({ client_address: _client, email_key: _key, ...order }) => ({
          ...order,
          lines: lines.filter((line) => line.order_id === order.id),
        })),
        contactMessages: messages,
      };
    },

    /** Erases a customer for good, once staff have typed their e-mail address to confirm. */
    async erase(id: number, confirmEmail: string, staff: Staff): Promise<CustomerDetail> {
      await db.transaction().execute(async (trx) => {
        const customer = await customerOrThrow(id, trx);
        if (customer.erased_at)
          throw new RefusedError(409, errorCodes.conflict, 'This customer has been erased already.');
        if (confirmEmail.trim().toLowerCase() !== customer.email.toLowerCase()) {
          throw new BadRequestError('That is not this customer’s e-mail address.', 'confirmEmail');
        }
        const subject = subjectOf(customer);
        const orders = await findCustomerOrders(trx, subject, { lock: true });
        // The name and address are what a live order is fulfilled with: staff erase once it is done.
        const live = orders.flatMap((order) => {
          const reason = stillToFulfil(order);
          return reason ? [`order ${order.order_number} ${reason}`] : [];
        });
        if (live.length > 0)
          throw new RefusedError(
            409,
            errorCodes.customerHasLiveOrders,
            `This customer cannot be erased yet: ${live.join('; ')}. Their name and address are needed to ` +
              'fulfil it: erase them once every order is dispatched, cancelled or refunded.',
          );
        const at = now();
        const erased = await eraseCustomer(
          trx,
          subject,
          orders.map((order) => order.id),
          at,
        );
        // The entry says what was done, not whose data it was.
        await recordAudit(trx, {
          staff,
          action: 'customer.erase',
          entityType: 'customer',
          entityId: id,
          after: { erased: true, ordersBlanked: erased.orders },
          at,
        });
      });
      return this.detail(id);
    },
  };
}

export type CustomersAdminService = ReturnType<typeof createCustomersAdminService>;

function subjectOf(customer: Pick<Customer, 'id' | 'email' | 'verified_at'>): DataSubject {
  return { id: customer.id, email: customer.email, verified: customer.verified_at !== null };
}

/**
 * Why an order still needs its customer's name and address, if it does: it holds stock awaiting
 * its payment (which may yet come), or it is paid and not yet sent (unless refunded in full).
 */
function stillToFulfil(
  order: Pick<OrderRow, 'status' | 'holds_stock' | 'fulfilment' | 'refunded_total' | 'total_including_delivery'>,
): string | undefined {
  if (isOneOf(order.status, awaitingPayment) && order.holds_stock === 1) return 'is awaiting payment and holds stock';
  // Waiting to dispatch: nothing sent yet, or part sent and the rest to come (not refunded in full).
  if (
    isWaitingToDispatch({
      status: order.status,
      fulfilment: order.fulfilment,
      total: order.total_including_delivery,
      refundedTotal: order.refunded_total,
    })
  )
    return order.fulfilment === 'partially_dispatched'
      ? 'is paid and only partly dispatched'
      : 'is paid and not yet dispatched';
  return undefined;
}

/** A customer as the list shows them: named by their account, or else by their latest order. */
function customerRow(row: CustomerRowData): CustomerRow {
  const account =
    row.account_id === null
      ? null
      : {
          id: row.account_id,
          createdAt: row.account_created_at ?? '',
          verified: row.account_verified_at !== null,
          erased: row.account_erased_at !== null,
        };
  const [firstname, lastname] = account
    ? [row.account_firstname, row.account_lastname]
    : [row.order_firstname, row.order_lastname];
  return {
    ref: account ? `a${account.id}` : `o${Number(row.first_order_number)}`,
    email: row.k,
    name: `${firstname ?? ''} ${lastname ?? ''}`.trim(),
    account,
    orderCount: Number(row.order_count),
    paidOrders: Number(row.paid_orders),
    totalSpent: Number(row.total_spent),
    lastOrderAt: row.last_order_at,
  };
}

function customerSummary(
  customer: Pick<Customer, 'id' | 'email' | 'firstname' | 'lastname' | 'created_at' | 'verified_at' | 'erased_at'>,
): CustomerSummary {
  return {
    id: customer.id,
    email: customer.email,
    name: `${customer.firstname} ${customer.lastname}`,
    createdAt: customer.created_at,
    verified: customer.verified_at !== null,
    erased: customer.erased_at !== null,
  };
}
