import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import { type Database, openDatabase } from './client.ts';
import { migrate } from './migrate.ts';

/**
 * The deployment's database, migrated, for the server and the ops CLI alike: PostgreSQL when
 * DATABASE_URL is set, else PGlite on disk under DATA_DIR/pglite, a relative DATA_DIR taken from
 * `base`.
 */
export async function openConfiguredDatabase(
  settings: Config['database'],
  base: string = process.cwd(),
): Promise<Database> {
  const database = settings.url
    ? await openDatabase({ url: settings.url })
    : await openDatabase({ dataDir: ensureDir(resolve(base, settings.dataDir, 'pglite')) });
  try {
    await migrate(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}
