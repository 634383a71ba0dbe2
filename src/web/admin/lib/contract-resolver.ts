import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A form resolver for a form whose fields are typed differently from the payload (pounds as
 * typed, where the contract speaks pence): the form's values are turned into the payload, and the
 * contract's own schema judges it, its messages shown at the fields they name. So the rules live
 * once, in src/contract.
 *
 * `typed` checks what only the form knows, that a field holds what can be read at all (a price in
 * pounds, a whole number): its message stands for that field, the contract's for every other, all
 * shown at once. `fieldOf` names the form's field for a payload's path where they differ
 * (`sizes.0.priceWithoutDiscount` is typed in `sizes.0.price`).
 */
export function contractResolver<Form extends FieldValues, Schema extends z.ZodType>(
  schema: Schema,
  toPayload: (form: Form) => unknown,
  options: { typed?: z.ZodType; fieldOf?: (path: string) => string } = {},
): Resolver<Form> {
  return async (values, _context, resolverOptions) => {
    const errors: Record<string, FieldError> = {};
    const note = (issues: readonly z.core.$ZodIssue[], fieldOf = (path: string) => path) => {
      for (const issue of issues) {
        const field = fieldOf(issue.path.join('.') || 'root');
        errors[field] ??= { type: issue.code, message: issue.message };
      }
    };
    if (options.typed) {
      const typed = await options.typed.safeParseAsync(values);
      if (!typed.success) note(typed.error.issues);
    }
    const result = await schema.safeParseAsync(toPayload(values));
    if (!result.success) note(result.error.issues, options.fieldOf);
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    return { values: {}, errors: toNestErrors(errors, resolverOptions) };
  };
}

/** Pounds as typed to pence for the payload; blank is null where the payload allows it. */
export function penceOrNull(pence: number | undefined, typed: string): number | null | undefined {
  return typed.trim() === '' ? null : pence;
}
