import { z } from 'zod';
import { auditEntrySchema } from './audit.ts';
import { orderSummarySchema } from './orders.ts';

/** Customers in the back office (docs/back-office.md#customers), with UK GDPR export and erasure. */

export const customerListQuerySchema = z.object({
  /** The start of an e-mail address or a surname, or a first name and surname. */
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type CustomerListQuery = z.input<typeof customerListQuerySchema>;

export const customerSummarySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  verified: z.boolean(),
  erased: z.boolean(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const customerListSchema = z.object({
  customers: z.array(customerSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

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
