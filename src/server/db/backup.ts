import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { dialectOf } from './database.ts';

/**
 * Backups and restores (docs/production.md). SQLite: a consistent copy taken while the shop
 * runs (VACUUM INTO), restored by swapping the file in while the shop is stopped. PostgreSQL:
 * pg_dump's custom format and pg_restore, limited to the shop's schema when DATABASE_URL puts
 * one on the search_path.
 */

function sqlitePath(databaseUrl: string): string {
  return databaseUrl.slice('sqlite:'.length);
}

/** The schema named by `options=-c search_path=...` in a PostgreSQL URL, if any. */
function postgresSchema(databaseUrl: string): string | undefined {
  const options = new URL(databaseUrl).searchParams.get('options') ?? '';
  return /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
}

/** The URL without its options, for the PostgreSQL tools. */
function postgresToolUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.delete('options');
  return url.toString();
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(new Error(`${command} could not be run: ${error.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

export async function backupDatabase(databaseUrl: string, file: string): Promise<void> {
  if (existsSync(file)) throw new Error(`${file} exists already; choose a new file`);
  mkdirSync(dirname(file), { recursive: true });
  if (dialectOf(databaseUrl) === 'sqlite') {
    const sqlite = new SqliteDatabase(sqlitePath(databaseUrl), { readonly: true, timeout: 10_000 });
    try {
      // One read transaction: a consistent copy while other connections go on writing.
      sqlite.prepare('vacuum into ?').run(file);
    } finally {
      sqlite.close();
    }
    return;
  }
  const schema = postgresSchema(databaseUrl);
  await run('pg_dump', [
    '--format=custom',
    '--no-owner',
    ...(schema ? [`--schema=${schema}`] : []),
    `--file=${file}`,
    `--dbname=${postgresToolUrl(databaseUrl)}`,
  ]);
}

/** Replaces the database's contents with the backup's. The shop must be stopped meanwhile. */
export async function restoreDatabase(databaseUrl: string, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  if (dialectOf(databaseUrl) === 'sqlite') {
    const backup = new SqliteDatabase(file, { readonly: true });
    const check = backup.pragma('integrity_check', { simple: true });
    backup.close();
    if (check !== 'ok') throw new Error(`${file} is not a sound SQLite database: ${String(check)}`);
    const target = sqlitePath(databaseUrl);
    const incoming = `${target}.restoring`;
    rmSync(incoming, { force: true });
    const copy = new SqliteDatabase(file, { readonly: true });
    await copy.backup(incoming);
    copy.close();
    // The old file's write-ahead log belongs to the old contents.
    for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    renameSync(incoming, target);
    return;
  }
  const schema = postgresSchema(databaseUrl);
  await run('pg_restore', [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--single-transaction',
    ...(schema ? [`--schema=${schema}`] : []),
    `--dbname=${postgresToolUrl(databaseUrl)}`,
    file,
  ]);
}
