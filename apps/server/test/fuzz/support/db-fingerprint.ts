import { PGlite } from '@electric-sql/pglite';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../../../src/db/client.ts';
import { queryRows } from '../../../src/db/query-rows.ts';
import * as schema from '../../../src/db/schema.ts';

const NUMERIC_TYPES = new Set([
  'PgNumericBigInt',
  'PgNumeric',
  'PgInteger',
  'PgSerial',
  'PgBigInt53',
  'PgBigInt64',
  'PgBigSerial53',
  'PgBigSerial64',
]);

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** The fingerprint query as text: it has no parameters, every name in it comes from our schema. */
function fingerprintSql(): string {
  const values: unknown[] = Object.values(schema);
  const tables = values.filter((value): value is PgTable => is(value, PgTable));
  const perTable = tables.map((table) => {
    const { name, columns } = getTableConfig(table);
    const parts = columns.map((column) => {
      const ref = quote(column.name);
      if (column.primary) return `max(${ref})::text`;
      if (NUMERIC_TYPES.has(column.columnType)) return `sum(${ref})::text`;
      if (column.columnType === 'PgTimestamp') return `max(${ref})::text`;
      if (column.columnType === 'PgBoolean') return `count(*) filter (where ${ref})`;
      return `count(${ref})`;
    });
    return `(select json_build_array('${name}', count(*), ${parts.join(', ')}) from ${quote(name)})`;
  });
  return `select json_build_array(${perTable.join(', ')})::text as fingerprint`;
}

/**
 * One cheap query whose answer changes when any row of any table is inserted, deleted or changed
 * in a way that matters: per table the row count, the largest key, the sum of every numeric column
 * (money included), the latest of every time column, and how many rows have each other column set.
 * Built from the Drizzle schema, so a table added later is covered without editing this file.
 * On PGlite it goes through the simple query protocol, several times faster than a prepared
 * query there: it runs after every one of the suite's thousands of requests.
 */
export function createDbFingerprint(db: Db): () => Promise<string> {
  const text = fingerprintSql();
  const client: unknown = Reflect.get(db, '$client');
  if (client instanceof PGlite) {
    return async () => {
      const [result] = await client.exec(text);
      const row = z.object({ fingerprint: z.string() }).parse(result?.rows[0]);
      return row.fingerprint;
    };
  }
  return async () => {
    const [row] = await queryRows(db, sql.raw(text), z.object({ fingerprint: z.string() }));
    if (!row) throw new Error('the fingerprint query answered no row');
    return row.fingerprint;
  };
}
