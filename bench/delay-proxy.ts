import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * A TCP proxy that holds every chunk for `delayMs` in each direction, keeping each direction's
 * order: a database on another host, for bench:sale. It runs in a worker thread of its own, so the
 * load generator's busy event loop does not add to the delay. Posts the port it listens on.
 */
const { host, port, delayMs } = workerData as { host: string; port: number; delayMs: number };

function forward(from: Socket, to: Socket): void {
  from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => to.destroy());
  from.on('close', () => setTimeout(() => to.destroy(), delayMs));
}

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect({ host, port });
  upstream.setNoDelay(true);
  forward(client, upstream);
  forward(upstream, client);
});
server.listen(0, '127.0.0.1', () => parentPort?.postMessage((server.address() as AddressInfo).port));
