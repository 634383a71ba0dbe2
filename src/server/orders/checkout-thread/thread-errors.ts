import { isDatabaseUnavailable } from '../../db/database.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../../errors.ts';

/**
 * An error thrown in the checkout thread, as it crosses to the main thread: a structured clone
 * keeps an error's message but not its class or fields, and the answer depends on both.
 */
export type ThreadError =
  | { kind: 'refused'; status: number; code: string; message: string; field?: string }
  | { kind: 'bad-request'; message: string; field?: string; fields?: Array<{ field: string; message: string }> }
  | { kind: 'not-found'; message: string }
  | { kind: 'unavailable'; message: string; code?: string }
  | { kind: 'fault'; message: string; stack?: string };

export function describeError(error: unknown): ThreadError {
  if (error instanceof RefusedError) {
    return {
      kind: 'refused',
      status: error.status,
      code: error.code,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
    };
  }
  if (error instanceof BadRequestError) {
    return {
      kind: 'bad-request',
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error.fields ? { fields: error.fields } : {}),
    };
  }
  if (error instanceof NotFoundError) return { kind: 'not-found', message: error.message };
  if (isDatabaseUnavailable(error)) {
    const code = (error as { code?: unknown }).code;
    return { kind: 'unavailable', message: (error as Error).message, ...(typeof code === 'string' ? { code } : {}) };
  }
  const fault = error instanceof Error ? error : new Error(String(error));
  return { kind: 'fault', message: fault.message, ...(fault.stack ? { stack: fault.stack } : {}) };
}

/** The error again, of the class the error handler answers for (a fault stays a 500 with its stack). */
export function rebuildError(described: ThreadError): Error {
  switch (described.kind) {
    case 'refused':
      return new RefusedError(described.status, described.code, described.message, described.field);
    case 'bad-request':
      return new BadRequestError(described.message, described.field, described.fields);
    case 'not-found':
      return new NotFoundError(described.message);
    case 'unavailable':
      // isDatabaseUnavailable reads the code, or node-postgres' words, as it did in the thread.
      return Object.assign(new Error(described.message), described.code ? { code: described.code } : {});
    case 'fault': {
      const error = new Error(`in the checkout thread: ${described.message}`);
      if (described.stack) error.stack = `${error.message}\n${described.stack}`;
      return error;
    }
  }
}
