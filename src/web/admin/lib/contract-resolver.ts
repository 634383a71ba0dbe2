import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form resolver for a form whose fields are typed differently from the payload (pounds as
 * typed, where the contract speaks pence): the form's values are turned into the payload, and the
 * contract's own schema judges it, its messages shown at the fields they name. So the rules live
 * once, in src/contract.
 */
export function contractResolver<Form extends FieldValues, Schema extends z.ZodType>(
  schema: Schema,
  toPayload: (form: Form) => unknown,
): Resolver<Form> {
  return async (values) => {
    const result = await schema.safeParseAsync(toPayload(values));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? 'root');
      errors[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<Form> };
  };
}

/** Pounds as typed to pence for the payload; blank is null where the payload allows it. */
export function penceOrNull(pence: number | undefined, typed: string): number | null | undefined {
  return typed.trim() === '' ? null : pence;
}
