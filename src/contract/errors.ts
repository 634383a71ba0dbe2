import { z } from 'zod';

/** Every 4xx/5xx answer of the API has this shape (docs/rules.md#api-answers-and-errors). */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
  })
  // One component of the API document, which every error answer refers to.
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof apiErrorSchema>;
