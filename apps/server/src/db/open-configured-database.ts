import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import { type Database, openDatabase } from './client.ts';
import { type DataFolderHolder, findDataFolderHolder, lockDataFolder } from './data-folder-lock.ts';
import { migrate } from './migrate.ts';

/**
 * The deployment's database, migrated, for the server and the ops CLI alike: PostgreSQL when
 * DATABASE_URL is set, else PGlite on disk under DATA_DIR/pglite, a relative DATA_DIR taken from
 * `base`. PGlite's folder is taken for this process first (decision 033; `purpose` names it to a
 * process that finds it taken) and given back when the database closes: DataFolderHeldError while
 * another live process holds it.
 */
export async function openConfiguredDatabase(
  settings: Config['database'],
  base: string = process.cwd(),
  purpose = 'server',
): Promise<Database> {
  if (settings.url) return migrated(await openDatabase({ url: settings.url }));
  const dataDir = ensureDir(resolve(base, settings.dataDir));
  const lock = lockDataFolder(dataDir, purpose);
  try {
    const database = await migrated(await openDatabase({ dataDir: ensureDir(join(dataDir, 'pglite')) }));
    return { ...database, close: () => database.close().finally(() => lock.release()) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The live process that holds PGlite's folder (never on PostgreSQL), or null. */
export function findDatabaseHolder(
  settings: Config['database'],
  base: string = process.cwd(),
): DataFolderHolder | null {
  return settings.url ? null : findDataFolderHolder(resolve(base, settings.dataDir));
}

/**
 * A copy of PGlite's folder, taken now, opened in a temporary folder removed at close: what a
 * read-only command reads while another process holds the folder (decision 033). The copy is the
 * files as they are mid-write, as after a crash: PGlite recovers it from its write-ahead log, and
 * nothing is ever written to the holder's files.
 */
export async function openDatabaseCopy(
  settings: Config['database'],
  base: string = process.cwd(),
  options: { migrate?: boolean } = {},
): Promise<Database> {
  const source = join(resolve(base, settings.dataDir), 'pglite');
  const copy = mkdtempSync(join(tmpdir(), 'pm-pglite-copy-'));
  try {
    cpSync(source, copy, { recursive: true });
    const opened = await openDatabase({ dataDir: copy });
    const database = options.migrate === false ? opened : await migrated(opened);
    return {
      ...database,
      close: () => database.close().finally(() => rmSync(copy, { recursive: true, force: true })),
    };
  } catch (error) {
    rmSync(copy, { recursive: true, force: true });
    throw error;
  }
}

async function migrated(database: Database): Promise<Database> {
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
