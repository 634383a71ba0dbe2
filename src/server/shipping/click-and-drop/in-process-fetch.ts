import type { FastifyInstance } from 'fastify';

/**
 * A fetch that is answered by this process's own Fastify app (app.inject), for the local Click &
 * Drop sandbox: the real client speaks real HTTP requests and answers to it, without a socket or
 * the shop's public address being reachable from inside its own container.
 */
export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const answer = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return new Response(answer.statusCode === 204 ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  }) as typeof fetch;
}
