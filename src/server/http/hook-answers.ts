/**
 * The error statuses a route-level hook may answer with (a sign-in guard's 401, a limit's 429),
 * so that the API document (openapi.ts) lists them for every route the hook stands in front of,
 * without each route repeating them.
 */
const answers = new WeakMap<object, readonly number[]>();

/** Marks `hook` as answering `statuses`; returns the hook. */
export function answersWith<Hook extends object>(hook: Hook, statuses: readonly number[]): Hook {
  answers.set(hook, statuses);
  return hook;
}

/** The statuses a hook was marked with, none if it was not. */
export function statusesOf(hook: unknown): readonly number[] {
  return typeof hook === 'function' ? (answers.get(hook) ?? []) : [];
}
