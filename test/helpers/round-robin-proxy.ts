import { createServer, request as httpRequest, type Server } from 'node:http';

export interface RoundRobinProxy {
  url: string;
  /** Bodies of the requests that went to `path`, as they were sent. */
  bodiesSentTo(path: string): string[];
  close(): Promise<void>;
}

/**
 * A load balancer for tests: each request goes to the next instance in turn, as a reverse proxy
 * in front of several instances would send it, and it records request bodies.
 */
export async function startRoundRobinProxy(targets: () => string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const bodies: Array<{ path: string; body: string }> = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push({ path: incoming.url ?? '', body: body.toString('utf8') });
      const list = targets();
      const target = new URL(list[next++ % list.length] as string);
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host, 'x-forwarded-for': incoming.socket.remoteAddress },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => {
        outgoing.writeHead(502);
        outgoing.end();
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    bodiesSentTo: (path) => bodies.filter((entry) => entry.path === path).map((entry) => entry.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
