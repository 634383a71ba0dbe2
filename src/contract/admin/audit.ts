import { z } from 'zod';

/** The audit log (docs/back-office.md#audit-log): every staff action, who, when, what, before and after. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staffEmail: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPageQuerySchema = z.object({
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  entityType: z
    .enum([
      'order',
      'customer',
      'staff',
      'role',
      'product',
      'product_type',
      'brand',
      'voucher',
      'stock',
      'delivery_method',
      'country',
      'setting',
      'product_import',
    ])
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextBefore: z.number().int().nullable(),
});
