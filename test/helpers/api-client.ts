import type { PricedBasket } from '../../src/contract/basket.ts';
import { csrfTokenForCookies } from './csrf.ts';

/** The calls a shopper's page makes, over real HTTP, to whichever instance it is given. */
export async function call<T = unknown>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T; text: string; headers: Headers }> {
  const method = init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST');
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.body);
  }
  if (method !== 'GET') {
    const token = csrfTokenForCookies(headers.cookie);
    headers['x-xsrf-token'] = token;
    headers.cookie = [headers.cookie, `XSRF-TOKEN=${token}`].filter(Boolean).join('; ');
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

export type Priced = PricedBasket;
