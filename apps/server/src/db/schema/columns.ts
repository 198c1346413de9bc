import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { numeric, timestamp } from 'drizzle-orm/pg-core';

// One schema for PGlite and PostgreSQL (docs/architecture.md "Chosen parts"). Money is NUMERIC(78,0) read as an
// exact bigint; addresses are stored lower-case; times are timestamptz. No pg enums: text with
// CHECK constraints keeps migrations free of schema-qualified types, so tests can run each file in
// its own schema.

export const wei = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });
/** USD prices scaled by 1e8 (docs/product.md §9). */
export const price = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * `column in ('a', 'b', …)` from one of core's value tuples, so the database accepts exactly what
 * the contract does. The values are core's constants, never input; the text is what the checked-in
 * migrations hold, so drizzle-kit sees no drift.
 */
export const isOneOf = (column: AnyColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;
