import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { DbOrTx } from './client.ts';

// Named (server-side prepared) statements for the hot per-wallet reads (docs/decisions/022).
// PostgreSQL then parses and plans each statement once per connection instead of once per request:
// at 1M bets a wallet's history runs in 0.4 ms and, unprepared, takes 2.1 ms to plan on every
// request (EXPLAIN ANALYZE in docs/benchmarks.md), and a user's bets 0.09 ms after 0.25 ms of
// planning.
//
// The name is a hash of the SQL text, so one text is one statement and a text never meets another
// text's name (node-postgres refuses a name reused with other text on a connection). Only for
// statements whose text is one of a bounded set: every value must be a parameter, never spliced in
// (each distinct text is a statement kept on every pooled connection). PGlite runs in-process and
// ignores the name.

const dialect = new PgDialect();
const names = new Map<string, string>();
const NAMES_MAX = 1000;

/** The statement name of a SQL text: `pm_` and 20 hex digits of its SHA-256. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pm_${createHash('sha256').update(text).digest('hex').slice(0, 20)}`;
    // A bounded memo: a caller that broke the "bounded set of texts" rule must not grow it forever.
    if (names.size >= NAMES_MAX) names.clear();
    names.set(text, name);
  }
  return name;
}

const ResultSchema = z.object({ rows: z.array(z.unknown()) });

/**
 * A Drizzle prepared query (`.prepare(name)`, values as `sql.placeholder`s) built once per database
 * handle and kept while the handle lives: a prepared query belongs to its handle's session. On the
 * pool's handle it is built once for the process, so neither the query builder nor PostgreSQL's
 * planner runs per call; on a transaction's, once per transaction.
 */
export function preparedPerHandle<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/** Runs `query` as a named prepared statement and parses each row with `row`. */
export async function preparedRows<T extends z.ZodType>(
  db: DbOrTx,
  query: SQL,
  row: T,
): Promise<z.infer<T>[]> {
  const compiled = dialect.sqlToQuery(query);
  // The session's own prepareQuery is what db.execute() calls, with a name instead of none; it
  // logs through the configured logger, so tests and the bench still see every statement.
  const prepared = db._.session.prepareQuery(compiled, undefined, statementName(compiled.sql), false);
  const result = ResultSchema.parse(await prepared.execute());
  return result.rows.map((value) => row.parse(value));
}
