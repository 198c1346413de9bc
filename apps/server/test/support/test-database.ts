import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * Which database the integration suite runs on: TEST_DB=postgres uses DATABASE_URL with a fresh
 * schema per test file (dropped after); anything else an in-memory PGlite.
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
  const database = await openDatabase({});
  await migrate(database.db);
  return { ...database, url: undefined, schema: undefined };
}

export type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;
