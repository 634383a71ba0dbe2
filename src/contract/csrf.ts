/**
 * CSRF (docs/rules.md#security): the server sets this cookie, readable by the page's script,
 * and every state-changing /api call echoes it in this header.
 */
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
