import type { FastifyInstance } from 'fastify';

/**
 * A fetch that delivers the shop's calls to its own PayPal sandbox, and the sandbox's webhooks to
 * the shop, through app.inject (no open port). `intercept` may answer a call itself, or hold a
 * webhook back; `app` is set once the app is built.
 */
export function injectedPaypal(publicUrl = 'http://localhost:3000') {
  const state: {
    app?: FastifyInstance;
    intercept?: (url: string, init: RequestInit | undefined, forward: () => Promise<Response>) => Promise<Response>;
    webhooks: Array<{ headers: Record<string, string>; body: string }>;
    holdWebhooks: boolean;
  } = { webhooks: [], holdWebhooks: false };
  const forward = async (url: string, init?: RequestInit): Promise<Response> => {
    if (!state.app) throw new Error('no app yet');
    const answer = await state.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.slice(publicUrl.length),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(init?.body === undefined ? {} : { payload: String(init.body) }),
    });
    return new Response(answer.body || null, { status: answer.statusCode });
  };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    if (!url.startsWith(publicUrl)) throw new Error(`unexpected call to ${url}`);
    if (url.endsWith('/webhooks/paypal')) {
      state.webhooks.push({
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        body: String(init?.body),
      });
      if (state.holdWebhooks) return new Response('', { status: 200 });
    }
    return state.intercept ? state.intercept(url, init, () => forward(url, init)) : forward(url, init);
  }) as typeof globalThis.fetch;
  return { state, fetch };
}
