import { loadConfig } from '../../config.ts';

/**
 * The container image's HEALTHCHECK (Containerfile): exits 0 when this instance's GET /readyz
 * answers 200 (the database answers), 1 otherwise. A slim image has no curl; Node is there.
 */
const config = loadConfig();
// Listening on every interface: ask on the loopback one.
const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/readyz`;
try {
  const answer = await fetch(url, { signal: AbortSignal.timeout(4_000) });
  if (!answer.ok) console.error(`${url} answered ${answer.status}`);
  process.exit(answer.ok ? 0 : 1);
} catch (error) {
  console.error(`${url}: ${(error as Error).message}`);
  process.exit(1);
}
