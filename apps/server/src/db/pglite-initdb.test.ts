import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase, PGLITE_SHARED_BUFFERS } from './client.ts';
import { initPgliteDataDir } from './pglite-initdb.ts';
import { queryRows } from './query-rows.ts';

const root = mkdtempSync(join(tmpdir(), 'pm-pglite-initdb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a new PGlite data directory', () => {
  it('is created by a child process, then opened, with our shared_buffers', async () => {
    const dataDir = join(root, 'fresh');
    const database = await openDatabase({ dataDir });
    try {
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      const rows = await queryRows(database.db, sql`show shared_buffers`, z.unknown());
      expect(rows).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
      await database.db.execute(sql`create table kept (id int)`);
    } finally {
      await database.close();
    }
    // An existing directory is opened as it is: nothing runs initdb over it.
    await initPgliteDataDir(dataDir, { startParams: [] });
    const reopened = await openDatabase({ dataDir });
    try {
      const rows = await queryRows(reopened.db, sql`select count(*)::int as n from kept`, z.unknown());
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await reopened.close();
    }
  });

  it('that cannot be created fails the start with a message naming it', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    const dataDir = join(file, 'pglite');
    await expect(initPgliteDataDir(dataDir, { startParams: [] })).rejects.toThrow(
      `Creating the PGlite database in ${dataDir} failed`,
    );
  });
});
