import { openDatabase } from '../../db/database.ts';
import { buildIndexDataFromSnapshot, writeIndexFile, type BuildRequest } from './index-build.ts';

/**
 * Builds the search index in a process of its own and leaves its arrays in a file for the server
 * (index-build.ts), then exits, giving every byte the build used back to the system.
 */
const request = JSON.parse(process.env.SEARCH_INDEX_BUILD ?? '{}') as BuildRequest;
const db = openDatabase(request.url, { ...(request.pgSchema ? { pgSchema: request.pgSchema } : {}), poolSize: 1 });
try {
  writeIndexFile(request.file, await buildIndexDataFromSnapshot(db.kysely));
} finally {
  await db.destroy();
}
