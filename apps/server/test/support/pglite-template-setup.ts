import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (dumpDataDir's tarball) that openTestDatabase loads. */
    pgliteTemplate: string | undefined;
  }
}

// Each test file opens its own in-memory PGlite. Creating one runs initdb and the migrations (about
// 4 s of one core); loading a migrated data directory takes about 0.6 s. The suite makes that
// directory once, here, and every file loads it (openTestDatabase); the migrations still run on each
// load, and find nothing to do, so a template can never be behind the schema.
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    project.provide('pgliteTemplate', undefined);
    return;
  }
  const database = await openDatabase({});
  let path: string;
  try {
    await migrate(database.db);
    const dump = await database.dumpTemplate?.();
    if (!dump) throw new Error('PGlite did not dump its data directory');
    const folder = mkdtempSync(join(tmpdir(), 'pm-pglite-template-'));
    path = join(folder, 'template.tar');
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', path);
  } finally {
    await database.close();
  }
  return () => rmSync(join(path, '..'), { recursive: true, force: true });
}
