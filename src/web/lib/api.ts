import { CSRF_COOKIE, CSRF_HEADER } from '../../contract/csrf.ts';
/**
 * Thrown for any answer that is not 2xx; carries the status so callers can tell 404 from the rest,
 * and the error code of the answer's body when it has one (docs/rules.md#api-answers-and-errors).
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function errorCodeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls the API and answers its JSON. The payload types come from src/contract, whose zod schemas
 * the server checks its answers against; browsing pages skip parsing them again to stay small.
 */
export async function requestJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  // docs/rules.md#security: every call that changes something echoes the XSRF-TOKEN cookie.
  const method = (init.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') {
    const token = document.cookie
      .split(';')
      .map((pair) => pair.trim().split('='))
      .find(([name]) => name === CSRF_COOKIE)?.[1];
    if (token) headers.set(CSRF_HEADER, decodeURIComponent(token));
  }
  const response = await fetch(path, { ...init, headers });
  if (!response.ok)
    throw new ApiRequestError(
      response.status,
      `${init.method ?? 'GET'} ${path} answered ${response.status}`,
      await errorCodeOf(response),
    );
  return (await response.json()) as T;
}
