/** Thrown by a service when the thing asked for does not exist; answered as a 404. */
export class NotFoundError extends Error {}

/** A party we depend on (a payment provider) could not be reached; the caller should retry. */
export class UpstreamUnavailableError extends Error {}

/** Input that passed its schema but is still unusable (a Crypt that does not decrypt). */
export class BadRequestError extends Error {
  /** The field at fault, named in the answer's `fields` when known. */
  readonly field: string | undefined;
  /** Several faults at once (a CSV import's rows and columns), named in the answer's `fields` instead. */
  readonly fields: Array<{ field: string; message: string }> | undefined;
  constructor(message: string, field?: string, fields?: Array<{ field: string; message: string }>) {
    super(message);
    this.field = field;
    this.fields = fields;
  }
}

/**
 * A request refused for a reason the client should be told by name, with its own status and code
 * (too many unpaid orders: 429 TOO_MANY_UNPAID_ORDERS).
 */
export class RefusedError extends Error {
  readonly status: number;
  readonly code: string;
  /** The field at fault (a URL key another product has), named in the answer's `fields` when known. */
  readonly field: string | undefined;
  /** When to ask again, sent as Retry-After (a full queue: 429, 503). */
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, code: string, message: string, field?: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
