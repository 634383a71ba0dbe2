import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/csrf.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
/**
 * Thrown for any answer that is not 2xx; carries the status so callers can tell 404 from the rest,
 * and the error code and message of the answer's body when it has them (docs/rules.md#api-answers-and-errors).
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's own wording, for pages (the back office) that show it as it is. */
  readonly serverMessage: string | undefined;
  /** The fields the server named (`sizes.0.stock`), for a form to show each beside its field. */
  readonly fields: Array<{ field: string; message: string }>;
  /** A refusal's Retry-After, in seconds, when it gave one. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    status: number,
    message: string,
    code?: string,
    serverMessage?: string,
    fields: Array<{ field: string; message: string }> = [],
    retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.serverMessage = serverMessage;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** For a request refused by a limit (429), what to tell the shopper, with when to try again. */
export function limitMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiRequestError) || error.status !== 429) return undefined;
  const seconds = error.retryAfterSeconds;
  return seconds ? refusalMessages.tryAgainIn(seconds) : refusalMessages.tooManyAttempts;
}

function retryAfterOf(response: Response): number | undefined {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

async function errorOf(response: Response): Promise<{ code?: unknown; message?: unknown; fields?: unknown }> {
  try {
    return ((await response.json()) as { error?: { code?: unknown; message?: unknown; fields?: unknown } }).error ?? {};
  } catch {
    return {};
  }
}

/** The XSRF-TOKEN cookie's value, which every call that changes something echoes (docs/rules.md#security). */
export function csrfToken(): string | undefined {
  const token = document.cookie
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === CSRF_COOKIE)?.[1];
  return token === undefined ? undefined : decodeURIComponent(token);
}

/**
 * A token for a call that changes something: the cookie's, or, when no API answer has set one yet,
 * one asked for (pages set none: a CDN may keep them, docs/decisions/0021-server-rendering.md).
 */
export async function tokenForChange(renew = false): Promise<string | undefined> {
  if (!renew) {
    const token = csrfToken();
    if (token) return token;
  }
  // Calls made at once share one asking: each answer would set a token of its own.
  asking ??= fetch('/api/csrf-token', { headers: { accept: 'application/json' } })
    .then(() => undefined)
    .finally(() => {
      asking = undefined;
    });
  await asking;
  return csrfToken();
}
let asking: Promise<void> | undefined;

/**
 * Calls the API and answers its JSON. The payload types come from src/contract, whose zod schemas
 * the server checks its answers against; browsing pages skip parsing them again to stay small.
 */
export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  // JSON unless the caller says otherwise (a CSV file goes as text/csv).
  // A FormData body (photos) sets its own multipart type, with its boundary.
  if (init.body !== undefined && !(init.body instanceof FormData) && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  // docs/rules.md#security: every call that changes something echoes the XSRF-TOKEN cookie.
  const method = (init.method ?? 'GET').toUpperCase();
  const changes = method !== 'GET' && method !== 'HEAD';
  if (changes) {
    const token = await tokenForChange(false);
    if (token) headers.set(CSRF_HEADER, token);
  }
  let response = await fetch(path, { ...init, headers });
  if (changes && response.status === 403 && (await errorOf(response.clone())).code === errorCodes.csrf) {
    // A token for sessions this browser no longer holds (one that ran out): the server refused the
    // call before doing anything, so it is made once more with a new one.
    const token = await tokenForChange(true);
    if (token) headers.set(CSRF_HEADER, token);
    response = await fetch(path, { ...init, headers });
  }
  if (!response.ok) throw await requestErrorOf(response, path, init);
  // No content (deleting a packaging preset): nothing to read, and reading it would throw.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** An answer that is not 2xx as the error callers catch, with the body's code, message and fields. */
async function requestErrorOf(response: Response, path: string, init: RequestInit): Promise<ApiRequestError> {
  const { code, message, fields } = await errorOf(response);
  return new ApiRequestError(
    response.status,
    `${init.method ?? 'GET'} ${path} answered ${response.status}`,
    typeof code === 'string' ? code : undefined,
    typeof message === 'string' ? message : undefined,
    Array.isArray(fields) ? (fields as Array<{ field: string; message: string }>) : [],
    retryAfterOf(response),
  );
}

/**
 * Asks for a file (a PDF) and answers it with the name the server gave it; a refusal is thrown as
 * requestJson throws it, so a form can show its message beside the field it names.
 */
export async function requestFile(path: string, init: RequestInit = {}): Promise<{ blob: Blob; filename?: string }> {
  const response = await fetch(path, init);
  if (!response.ok) throw await requestErrorOf(response, path, init);
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { blob: await response.blob(), ...(filename ? { filename } : {}) };
}
