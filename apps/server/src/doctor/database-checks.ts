import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/config.ts';
import { type Db, openDatabase } from '../db/client.ts';
import { DataFolderHeldError, type DataFolderLock, lockDataFolder } from '../db/data-folder-lock.ts';
import { readAppliedMigrations, readMigrationJournal, readServerVersion } from '../db/migrate.ts';
import { openDatabaseCopy } from '../db/open-configured-database.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The database answers and its migrations are current (docs/operations.md "Preflight"). Doctor
// opens the database the server would, but never migrates it and never creates one.

export type DoctorDatabase = { db: Db; label: string; close(): Promise<void> };

/** The deployment's database, unmigrated: PostgreSQL (bounded in time), or an existing PGlite. */
export async function openDoctorDatabase(
  settings: Config['database'],
  options: { base: string; timeoutMs: number },
): Promise<DoctorDatabase> {
  if (settings.url) {
    const url = new URL(settings.url);
    const database = await openDatabase({ url: settings.url, poolSize: 2, timeoutMs: options.timeoutMs });
    return { db: database.db, label: `PostgreSQL at ${url.host}${url.pathname}`, close: database.close };
  }
  const dataDir = resolve(options.base, settings.dataDir, 'pglite');
  // Opening a missing directory would create an empty database: say so instead.
  if (!existsSync(dataDir)) {
    throw new Error(`there is no PGlite database at ${dataDir}: the server creates it at its first start`);
  }
  // PGlite's files are one process's (decision 033): beside a running server, doctor reads a copy.
  const folder = resolve(options.base, settings.dataDir);
  let lock: DataFolderLock;
  try {
    lock = lockDataFolder(folder, 'ops doctor');
  } catch (error) {
    if (!(error instanceof DataFolderHeldError)) throw error;
    const copy = await openDatabaseCopy(settings, options.base, { migrate: false });
    return { db: copy.db, label: `PGlite at ${dataDir} (a copy: ${error.message})`, close: copy.close };
  }
  try {
    const database = await openDatabase({ dataDir });
    return {
      db: database.db,
      label: `PGlite at ${dataDir}`,
      close: () => database.close().finally(() => lock.release()),
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** One query, answering the server's version. */
export async function checkDatabaseAnswers(database: DoctorDatabase): Promise<CheckOutcome> {
  const version = await readServerVersion(database.db);
  return passed(`${database.label}, PostgreSQL ${version ?? '?'}`);
}

/** Every migration in drizzle's journal is applied, and none the journal does not know. */
export async function checkMigrationsCurrent(db: Db): Promise<CheckOutcome> {
  const journal = (await readMigrationJournal()).map((entry) => entry.tag);
  const applied = await readAppliedMigrations(db);
  if (applied === null) {
    return failed(
      `no migration has run here (${journal.length} to apply): the server applies them at its start`,
    );
  }
  const done = new Set(applied);
  const known = new Set(journal);
  const unknown = applied.filter((tag) => !known.has(tag)).sort();
  if (unknown.length > 0) {
    return failed(
      `applied migrations this version does not know: ${unknown.join(', ')} (the database is newer than this build)`,
    );
  }
  const pending = journal.filter((tag) => !done.has(tag));
  if (pending.length > 0) {
    return failed(
      `${pending.length} of ${journal.length} not applied: ${pending.join(', ')}; the server applies them at its start`,
    );
  }
  return passed(`${journal.length} applied, the latest ${journal.at(-1) ?? 'none'}`);
}
