import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * Which database the integration suite runs on: TEST_DB=postgres uses DATABASE_URL with a fresh
 * schema per test file (dropped after); anything else an in-memory PGlite, loaded from the suite's
 * migrated template when there is one (pglite-template-setup.ts).
 */
export async function openTestDatabase() {
  const url = process.env.DATABASE_URL;
  if (process.env.TEST_DB === 'postgres') {
    if (!url) throw new Error('TEST_DB=postgres needs DATABASE_URL');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase({ url, schema, poolSize: 20 });
    await migrate(database.db);
    return {
      ...database,
      url,
      schema,
      async close() {
        await database.close();
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      },
    };
  }
  const database = await openDatabase({ template: pgliteTemplate() });
  await migrate(database.db);
  return { ...database, url: undefined, schema: undefined };
}

let template: Blob | undefined;

function pgliteTemplate(): Blob | undefined {
  const path = inject('pgliteTemplate');
  if (!path) return undefined;
  template ??= new Blob([readFileSync(path)]);
  return template;
}

export type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;
