import { z } from 'zod';
import { auditEntrySchema } from './audit.ts';
import { orderSummarySchema } from './orders.ts';

/** Customers in the back office (docs/back-office.md#customers), with UK GDPR export and erasure. */

export const customerSorts = ['recent', 'spent', 'email'] as const;

export const customerListQuerySchema = z.object({
  /**
   * The start of an e-mail address, a surname, a first name and surname, a postcode or the first
   * line of an address, in any case.
   */
  q: z.string().trim().max(100).optional(),
  /** By last order (newest first), by total spent (most first) or by e-mail address. */
  sort: z.enum(customerSorts).default('recent'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type CustomerListQuery = z.input<typeof customerListQuerySchema>;
export type CustomerListParams = z.output<typeof customerListQuerySchema>;

/** An account as staff see it (its own page: details, addresses, export, erasure). */
export const customerSummarySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  verified: z.boolean(),
  erased: z.boolean(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

/**
 * What the shop took from one customer: paid orders are those a payment was taken for (refunded
 * ones too); total spent is what they paid less what was refunded, in pence (docs/back-office.md#customers).
 */
const spendSchema = z.object({
  /** Every order placed with the address, paid or not. */
  orderCount: z.number().int(),
  paidOrders: z.number().int(),
  totalSpent: z.number().int(),
  lastOrderAt: z.string().nullable(),
});

/**
 * A customer's reference in the back office's addresses: `a` and the account's id for a
 * registered customer, `o` and an order's number for a guest, so no e-mail address is in a path.
 */
export const customerRefSchema = z.string().regex(/^[ao][1-9]\d{0,9}$/, 'a customer reference, such as a12 or o1001');

/** A customer: an e-mail address with orders or an account, registered or a guest. */
export const customerRowSchema = spendSchema.extend({
  ref: z.string(),
  email: z.string(),
  name: z.string(),
  /** The account with the address, if there is one. */
  account: customerSummarySchema.pick({ id: true, verified: true, erased: true, createdAt: true }).nullable(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

export const customerListSchema = z.object({
  customers: z.array(customerRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

export const customerRefParamsSchema = z.object({ ref: customerRefSchema });

/** One customer, guest or registered: their orders, counts and totals. */
export const customerRecordSchema = customerRowSchema.extend({
  orders: z.array(orderSummarySchema),
});
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

const customerAddressSchema = z.object({
  line1: z.string(),
  line2: z.string(),
  line3: z.string(),
  townCity: z.string(),
  postcode: z.string(),
  countryId: z.number().int().nullable(),
});

export const customerDetailSchema = customerSummarySchema.extend({
  firstname: z.string(),
  lastname: z.string(),
  contactNumber: z.string(),
  billingAddress: customerAddressSchema,
  deliveryAddress: customerAddressSchema,
  orders: z.array(orderSummarySchema),
  audit: z.array(auditEntrySchema),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const customerIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Erasing is for good: staff type the customer's e-mail address to confirm it. */
export const eraseCustomerSchema = z.object({
  confirmEmail: z.string().trim().min(1, 'Please type the customer’s e-mail address to confirm').max(254),
});
