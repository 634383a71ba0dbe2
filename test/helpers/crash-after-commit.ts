import type { KyselyPlugin, LogEvent, OperationNode } from 'kysely';
import type { Db } from '../../src/server/db/database.ts';

/**
 * Kills the "process" right after a change commits, for tests of what survives a crash: once
 * armed, the commit of the first transaction that ran a statement matching `marks` is the last
 * statement to reach the database; every later one fails before it is sent, until `restart`.
 * `failInsertsInto` instead fails inserts into a table, inside their transaction, so that
 * everything in it rolls back. Give `log` and `wrapDb` to createTestApp.
 */
export function crashAfterCommit(marks: RegExp) {
  const state = { armed: false, seen: false, dead: false, failInserts: undefined as string | undefined };
  const tableOf = (node: OperationNode) =>
    (node as { into?: { table?: { identifier?: { name?: string } } } }).into?.table?.identifier?.name;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (state.dead) throw new Error('the process died');
      if (state.failInserts && args.node.kind === 'InsertQueryNode' && tableOf(args.node) === state.failInserts)
        throw new Error(`the database failed on an insert into ${state.failInserts}`);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return {
    state,
    arm() {
      Object.assign(state, { armed: true, seen: false, dead: false });
    },
    failInsertsInto(table: string) {
      state.failInserts = table;
    },
    restart() {
      Object.assign(state, { armed: false, dead: false, failInserts: undefined });
    },
    log(event: LogEvent) {
      if (!state.armed || event.level !== 'query') return;
      const text = event.query.sql.trim().toLowerCase();
      if (marks.test(text)) state.seen = true;
      else if (text === 'commit' && state.seen) {
        state.dead = true;
        state.armed = false;
      }
    },
    wrapDb(db: Db): Db {
      const kysely = db.kysely.withPlugin(plugin);
      return { ...db, kysely, checkout: db.checkout === db.kysely ? kysely : db.checkout.withPlugin(plugin) };
    },
  };
}
