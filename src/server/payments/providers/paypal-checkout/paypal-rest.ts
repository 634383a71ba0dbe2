import type { PaypalMode } from '../../paypal.ts';
import { redactAddress } from '../../../http/redact-address.ts';

/**
 * PayPal's REST API as PayPal Checkout uses it (docs/rules.md#payments): OAuth2 client credentials, Orders v2,
 * captures' refunds and webhook signature verification. The access token is kept until shortly
 * before it expires.
 */

export function paypalApiBase(mode: PaypalMode, publicUrl: string): string {
  if (mode === 'local') return `${publicUrl}/sandbox/paypal`;
  return mode === 'sandbox' ? 'https://api-m.sandbox.paypal.com' : 'https://api-m.paypal.com';
}

/** How long before its expiry a token is no longer used. */
const TOKEN_MARGIN_MS = 60_000;
const CALL_TIMEOUT_MS = 15_000;

export class PaypalUnreachable extends Error {}

export interface PaypalAnswer {
  status: number;
  body: Record<string, unknown>;
}

export function paypalRestClient(options: {
  base: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  clock: () => Date;
}) {
  let token: { value: string; expiresAt: number } | undefined;
  let fetching: Promise<string> | undefined;

  async function send(path: string, init: RequestInit): Promise<PaypalAnswer> {
    let response: Response;
    try {
      response = await options.fetch(`${options.base}${path}`, {
        ...init,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new PaypalUnreachable(`PayPal did not answer ${redactAddress(path)}: ${(error as Error).message}`);
    }
    const text = await response.text();
    let body: Record<string, unknown>;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = { unreadable: text.slice(0, 200) };
    }
    if (response.status >= 500)
      throw new PaypalUnreachable(`PayPal answered ${response.status} to ${redactAddress(path)}`);
    return { status: response.status, body };
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const answer = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const value = answer.body.access_token;
    const expiresIn = Number(answer.body.expires_in);
    if (answer.status !== 200 || typeof value !== 'string' || !Number.isFinite(expiresIn))
      throw new PaypalUnreachable(`PayPal refused the client credentials (${answer.status})`);
    token = { value, expiresAt: options.clock().getTime() + expiresIn * 1000 };
    return value;
  }

  /** The cached token, or a new one; concurrent callers share one request for it. */
  async function accessToken(): Promise<string> {
    if (token && token.expiresAt - TOKEN_MARGIN_MS > options.clock().getTime()) return token.value;
    fetching ??= fetchToken().finally(() => (fetching = undefined));
    return fetching;
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await accessToken()}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    };
    if (requestId) headers['paypal-request-id'] = requestId;
    const answer = await send(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (answer.status === 401) {
      // A token PayPal ended early: one new token, one more try.
      token = undefined;
      headers.authorization = `Bearer ${await accessToken()}`;
      return send(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    }
    return answer;
  }

  return {
    createOrder: (order: unknown, requestId: string) => call('POST', '/v2/checkout/orders', order, requestId),
    getOrder: (id: string) => call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`),
    captureOrder: (id: string, requestId: string) =>
      call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, requestId),
    refundCapture: (captureId: string, refund: unknown, requestId: string) =>
      call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, refund, requestId),
    verifyWebhookSignature: (verification: unknown) =>
      call('POST', '/v1/notifications/verify-webhook-signature', verification),
  };
}

export type PaypalRestClient = ReturnType<typeof paypalRestClient>;
