import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './client.ts';
import { queryRows } from './query-rows.ts';

/** apps/server/drizzle: beside src/db/ in the sources, beside dist/ in the compiled server. */
export const MIGRATIONS_DIR =
  [new URL('../../drizzle/', import.meta.url), new URL('../drizzle/', import.meta.url)].find((dir) =>
    existsSync(new URL('meta/_journal.json', dir)),
  ) ?? new URL('../../drizzle/', import.meta.url);

const JournalSchema = z.object({
  entries: z.array(z.object({ idx: z.number(), tag: z.string() })),
});

/** The checked-in migrations (drizzle-kit's journal), in the order they apply. */
export async function readMigrationJournal(): Promise<Array<{ idx: number; tag: string }>> {
  const journal = JournalSchema.parse(
    JSON.parse(await readFile(new URL('meta/_journal.json', MIGRATIONS_DIR), 'utf8')),
  );
  return [...journal.entries].sort((a, b) => a.idx - b.idx);
}

/**
 * Applies the drizzle-kit migrations checked in under apps/server/drizzle, in order, once each.
 *
 * Our own runner rather than drizzle's migrator for one reason: drizzle-kit writes foreign keys as
 * `"public"."table"`, which would tie every schema to `public`. Unqualified, they resolve through
 * the search path, so a test file can migrate a schema of its own on a shared PostgreSQL.
 * Safe to call from several instances at once: an advisory lock serialises them.
 */
export async function migrate(db: Db): Promise<{ applied: string[] }> {
  const entries = await readMigrationJournal();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(8173001)`);
    await tx.execute(
      sql`create table if not exists schema_migrations (tag text primary key, applied_at timestamptz not null default now())`,
    );
    const done = await queryRows(tx, sql`select tag from schema_migrations`, z.object({ tag: z.string() }));
    const doneTags = new Set(done.map((row) => row.tag));
    for (const entry of entries) {
      if (doneTags.has(entry.tag)) continue;
      const text = await readFile(new URL(`${entry.tag}.sql`, MIGRATIONS_DIR), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) {
        const unqualified = statement.replaceAll('"public".', '').trim();
        if (unqualified) await tx.execute(sql.raw(unqualified));
      }
      await tx.execute(sql`insert into schema_migrations (tag) values (${entry.tag})`);
      applied.push(entry.tag);
    }
  });
  return { applied };
}

/**
 * The tags `migrate` has recorded, read only (ops doctor compares them with the journal and never
 * migrates); null when no migration has ever run here (no schema_migrations table).
 */
export async function readAppliedMigrations(db: Db): Promise<string[] | null> {
  const [table] = await queryRows(
    db,
    sql`select to_regclass('schema_migrations') is not null as "exists"`,
    z.object({ exists: z.boolean() }),
  );
  if (!table?.exists) return null;
  const rows = await queryRows(db, sql`select tag from schema_migrations`, z.object({ tag: z.string() }));
  return rows.map((row) => row.tag);
}

/** The database server's version (`server_version`): what doctor reports the database answered with. */
export async function readServerVersion(db: Db): Promise<string | undefined> {
  const [row] = await queryRows(
    db,
    sql`select current_setting('server_version') as version`,
    z.object({ version: z.string() }),
  );
  return row?.version;
}
