import { ApiRequestError } from '../../lib/api.ts';

/**
 * What to tell staff when a call failed: the server's own message (it words refusals such as a
 * 409 CONFLICT for the person acting), else a plain fallback.
 */
export function problemText(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 429) return 'Too many attempts. Please wait a minute and try again.';
  }
  return 'Something went wrong. Please try again.';
}

export function isSignedOut(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 401;
}
