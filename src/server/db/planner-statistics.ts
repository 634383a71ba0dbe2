import type { FastifyInstance } from 'fastify';
import type { Db } from './database.ts';

/** At start and every hour: the query planner's statistics kept fresh as the tables grow. */
export function schedulePlannerStatistics(app: FastifyInstance, db: Db, enabled: boolean): void {
  if (!enabled) return;
  let timer: NodeJS.Timeout | undefined;
  const refresh = () =>
    db.refreshStatistics().catch((error: unknown) => app.log.error({ err: error }, 'planner statistics not refreshed'));
  app.addHook('onReady', async () => {
    await refresh();
    timer = setInterval(() => void refresh(), 3_600_000);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
