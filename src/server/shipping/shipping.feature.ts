import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { createClickAndDropClient } from './click-and-drop/client.ts';
import { inProcessFetch } from './click-and-drop/in-process-fetch.ts';
import { clickAndDropSandboxRoutes } from './click-and-drop/sandbox.routes.ts';
import type { LabelCarrier } from './label-carrier.ts';

/** Where the local Click & Drop sandbox answers. */
export const CLICK_AND_DROP_SANDBOX_PATH = '/sandbox/click-and-drop/api/v1';

/** What tests set: the sandbox's and the client's clocks, and how the client waits. */
export interface LabelCarrierDeps {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Orders in one create call. */
  batchSize?: number;
  /** The client's pace (a test outruns the sandbox's limit to see a 429 waited out). */
  callsPerSecond?: number;
  /** Stands between the client and the sandbox (a test losing an answer, counting calls). */
  wrapFetch?: (inner: typeof globalThis.fetch) => typeof globalThis.fetch;
}

/**
 * The shop's label carrier (docs/back-office.md#shipping-labels): Click & Drop live, the local
 * sandbox (served here, answered in-process), or none when labels are off. The sandbox is never
 * registered in production: the configuration refuses CLICK_AND_DROP_MODE=local there.
 */
export async function setUpLabelCarrier(
  app: FastifyInstance,
  config: Pick<Config, 'clickAndDrop'>,
  deps: LabelCarrierDeps = {},
): Promise<LabelCarrier | undefined> {
  const { mode, apiKey, baseUrl } = config.clickAndDrop;
  if (mode === 'off') return undefined;
  const clock = deps.now ? { now: deps.now } : {};
  if (mode === 'live') return createClickAndDropClient({ baseUrl, apiKey });
  await app.register(clickAndDropSandboxRoutes, { prefix: CLICK_AND_DROP_SANDBOX_PATH, apiKey, ...clock });
  return createClickAndDropClient({
    baseUrl: `http://sandbox.local${CLICK_AND_DROP_SANDBOX_PATH}`,
    apiKey,
    fetch: deps.wrapFetch ? deps.wrapFetch(inProcessFetch(app)) : inProcessFetch(app),
    ...clock,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
    ...(deps.batchSize ? { batchSize: deps.batchSize } : {}),
    ...(deps.callsPerSecond ? { callsPerSecond: deps.callsPerSecond } : {}),
  });
}
