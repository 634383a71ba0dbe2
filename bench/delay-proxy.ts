import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * A TCP proxy that adds `roundTripMs` to every exchange with the server behind it, keeping each
 * direction's order: a database on another host, for bench:sale. PostgreSQL's protocol is request
 * then answer, so holding what the client sends for the whole round trip, and the answers not at
 * all, adds the same wait as holding each direction for half of it; Node's timers cannot wait less
 * than 1 ms, which two half delays would each round up to. It runs in a worker thread of its own,
 * so the load generator's busy event loop does not add to the delay. Posts the port it listens on.
 */
const { host, port, roundTripMs } = workerData as { host: string; port: number; roundTripMs: number };

function forward(from: Socket, to: Socket, delay: number): void {
  const send = (work: () => void) => (delay > 0 ? setTimeout(work, delay) : work());
  from.on('data', (chunk) => send(() => to.write(chunk)));
  from.on('end', () => send(() => to.end()));
  from.on('error', () => to.destroy());
  from.on('close', () => send(() => to.destroy()));
}

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect({ host, port });
  upstream.setNoDelay(true);
  forward(client, upstream, roundTripMs);
  forward(upstream, client, 0);
});
server.listen(0, '127.0.0.1', () => parentPort?.postMessage((server.address() as AddressInfo).port));
