import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  deliveryDetailsSchema,
  FulfilmentRequest,
  OrderDetail,
  OrderList,
  OrderListQuery,
  RefundInput,
} from '../../contract/admin/orders.ts';
import type { Database } from '../db/schema.ts';
import type { Staff } from '../staff/staff.service.ts';
import type { RefundingProvider } from './order-lifecycle.ts';
import { createOrderDetail, summaryOf } from './order-detail.admin-service.ts';
import { createOrderMoves } from './order-moves.admin-service.ts';
import { createOrderRefunds } from './order-refunds.admin-service.ts';
import { listOrders } from './orders.admin-repository.ts';
import type { ReleasedRefundsOptions } from './released-refunds.ts';
import { ordersCsv } from './orders-csv.ts';

export { summaryOf } from './order-detail.admin-service.ts';

/**
 * Orders in the back office (docs/back-office.md#orders), by concern: finding them and seeing
 * everything about one (order-detail), moving one on (order-moves: dispatch, delivery,
 * cancellation), refunding (order-refunds, the lifecycle's refund workflow) and the CSV
 * (orders-csv). Every change goes through the lifecycle (order-lifecycle.ts) in one transaction
 * with its audit entry (order-staff-change.ts); each answers the order as it is after.
 */
export function createOrdersAdminService(
  db: Kysely<Database>,
  options: {
    now?: () => Date;
    csvBatch?: number;
    /** The provider that took an order's payment, to refund through it where it can (ADR 0013). */
    providerOf?: (id: string | null) => RefundingProvider | undefined;
    /** Told of each order staff cancelled or refunded, once it committed (the metrics). */
    onOrderEvent?: (event: 'cancelled' | 'refunded') => void;
    /** The signed link to an order's VAT invoice, for the confirmation sent again. */
    invoiceUrl?: (orderNumber: number, linkVersion: number) => string;
    /** What the sweep needs to give back what waited on a refund never made (released-refunds.ts). */
    releasedRefunds?: ReleasedRefundsOptions;
  },
) {
  const context = { db, now: () => (options.now ?? (() => new Date()))().toISOString() };
  const events = options.onOrderEvent ? { onOrderEvent: options.onOrderEvent } : {};
  const refunds = createOrderRefunds(context, {
    ...(options.providerOf ? { providerOf: options.providerOf } : {}),
    ...(options.releasedRefunds ? { releasedRefunds: options.releasedRefunds } : {}),
    ...events,
  });
  const moves = createOrderMoves(context, {
    ...events,
    ...(options.invoiceUrl ? { invoiceUrl: options.invoiceUrl } : {}),
  });
  const detail = createOrderDetail(db, (order) => refunds.refunder(order) !== undefined);

  return {
    async list(query: OrderListQuery & { page: number; pageSize: number }): Promise<OrderList> {
      const { rows, total } = await listOrders(db, query);
      return { orders: rows.map(summaryOf), total, page: query.page, pageSize: query.pageSize };
    },

    detail,
    settleUnconfirmedRefunds: refunds.settleUnconfirmedRefunds,

    /** The list's orders as CSV, every page of them, a batch at a time. */
    csv: (query: OrderListQuery) => ordersCsv(db, query, options.csvBatch),

    async dispatch(orderNumber: number, toSend: FulfilmentRequest, staff: Staff): Promise<OrderDetail> {
      await moves.dispatch(orderNumber, toSend, staff);
      return detail(orderNumber);
    },

    /** Dispatch with something else written in the same transaction (a shipping label marked sent). */
    dispatchAlongside: moves.dispatch,

    async deliver(orderNumber: number, staff: Staff): Promise<OrderDetail> {
      await moves.deliver(orderNumber, staff);
      return detail(orderNumber);
    },

    async readyForCollection(orderNumber: number, staff: Staff): Promise<OrderDetail> {
      await moves.readyForCollection(orderNumber, staff);
      return detail(orderNumber);
    },

    async collect(orderNumber: number, staff: Staff): Promise<OrderDetail> {
      await moves.collect(orderNumber, staff);
      return detail(orderNumber);
    },

    async cancel(orderNumber: number, reason: string | undefined, staff: Staff): Promise<OrderDetail> {
      await moves.cancel(orderNumber, reason, staff);
      return detail(orderNumber);
    },

    async note(orderNumber: number, note: string, staff: Staff): Promise<OrderDetail> {
      await moves.note(orderNumber, note, staff);
      return detail(orderNumber);
    },

    async changeDeliveryDetails(
      orderNumber: number,
      details: z.output<typeof deliveryDetailsSchema>,
      staff: Staff,
    ): Promise<OrderDetail> {
      await moves.changeDeliveryDetails(orderNumber, details, staff);
      return detail(orderNumber);
    },

    async resendConfirmation(orderNumber: number, staff: Staff): Promise<OrderDetail> {
      await moves.resendConfirmation(orderNumber, staff);
      return detail(orderNumber);
    },

    async refund(orderNumber: number, refund: RefundInput, staff: Staff): Promise<OrderDetail> {
      await refunds.refund(orderNumber, refund, staff);
      return detail(orderNumber);
    },
  };
}

export type OrdersAdminService = ReturnType<typeof createOrdersAdminService>;
