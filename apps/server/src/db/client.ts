import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { initPgliteDataDir } from './pglite-initdb.ts';
import * as schema from './schema.ts';

type Schema = typeof schema;
/** The one database handle the app uses; PGlite and PostgreSQL both satisfy it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either, so a caller can compose them inside its own transaction. */
export type DbOrTx = Db | Tx;

type DatabaseKind = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /** The schema given to openDatabase (a test file's), if any: its tables are first on the search path. */
  schema?: string;
  /**
   * Calls `onMessage` with each NOTIFY payload on `channel`; resolves to an unsubscribe function.
   * A lost listening connection is opened again (with backoff); `onReconnect` then runs, since
   * notifications sent while it was down are gone. `onDisconnect` runs as soon as it is lost.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    options?: { onReconnect?: () => void; onDisconnect?: () => void },
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: this database's data directory as a template for `openDatabase({ template })`. */
  dumpTemplate?: () => Promise<Blob>;
};

export type OpenDatabaseOptions =
  /**
   * PostgreSQL server; `schema` isolates a test file (created if missing, first on the search path).
   * `timeoutMs` bounds each connection attempt and query (ops doctor); unset, pg waits as long as it takes.
   */
  | { url: string; schema?: string; poolSize?: number; timeoutMs?: number }
  /**
   * Embedded PGlite on disk, or in memory when `dataDir` is undefined. `template` (in memory only)
   * is a data directory dumped by PGlite's `dumpDataDir`, loaded instead of running initdb: the test
   * suites open dozens of migrated databases, and loading one takes a seventh of creating it.
   */
  | { dataDir?: undefined; template?: Blob }
  | { dataDir: string };

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if ('url' in options) return openPostgres(options);
  return openPglite(options.dataDir, 'template' in options ? options.template : undefined);
}

async function openPostgres(options: {
  url: string;
  schema?: string;
  poolSize?: number;
  timeoutMs?: number;
}): Promise<Database> {
  const { url, schema: schemaName, poolSize = 10, timeoutMs } = options;
  if (schemaName) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${assertIdentifier(schemaName)}"`);
    } finally {
      await admin.end();
    }
  }
  const connectionOptions = {
    connectionString: url,
    ...(schemaName ? { options: `-c search_path="${assertIdentifier(schemaName)}"` } : {}),
    ...(timeoutMs ? { connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs } : {}),
  };
  const pool = new pg.Pool({ ...connectionOptions, max: poolSize });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db: Db = drizzleNodePg(pool, { schema });
  const listeners = new Set<pg.Client>();
  let closing = false;
  return {
    db,
    kind: 'postgres',
    ...(schemaName ? { schema: schemaName } : {}),
    async listen(channel, onMessage, options = {}) {
      // LISTEN needs its own connection, held open (not through a transaction-mode pooler).
      let client: pg.Client | undefined;
      let stopped = false;
      let retryMs = LISTEN_RETRY_MIN_MS;
      let retry: NodeJS.Timeout | undefined;
      const connect = async () => {
        const next = new pg.Client(connectionOptions);
        next.on('error', () => {}); // 'end' follows, and reconnects
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined) onMessage(message.payload);
        });
        try {
          await next.connect();
          await next.query(`LISTEN "${assertIdentifier(channel)}"`);
        } catch (error) {
          await next.end().catch(() => {});
          throw error;
        }
        // Only a connection that was listening is replaced when it ends.
        next.on('end', () => {
          listeners.delete(next);
          if (!stopped && !closing) {
            options.onDisconnect?.();
            reconnectLater();
          }
        });
        client = next;
        listeners.add(next);
        retryMs = LISTEN_RETRY_MIN_MS;
      };
      // A database restart or a severed connection must not leave this instance deaf for good.
      const reconnectLater = () => {
        clearTimeout(retry);
        retry = setTimeout(() => {
          connect().then(
            () => options.onReconnect?.(),
            () => {
              retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
              if (!stopped && !closing) reconnectLater();
            },
          );
        }, retryMs);
        retry.unref();
      };
      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        if (client) {
          listeners.delete(client);
          await client.end().catch(() => {});
        }
      };
    },
    async close() {
      closing = true;
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}

/**
 * PostgreSQL's own `shared_buffers` (128MB) costs PGlite its size in resident memory at start, and
 * WASM memory never shrinks. PGlite is the one-machine database (docs/operations.md "Memory",
 * decision 023): 16MB holds the hot pages of a trial install, and a miss is a read from the operating
 * system's page cache.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<Database> {
  const options = {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  };
  if (dataDir) await initPgliteDataDir(dataDir, options);
  const client = await PGlite.create(dataDir ?? 'memory://', {
    ...options,
    ...(template ? { loadDataDir: template } : {}),
  });
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    async listen(channel, onMessage) {
      const unsubscribe = await client.listen(channel, onMessage);
      return unsubscribe;
    },
    async close() {
      await client.close();
    },
    async dumpTemplate() {
      return client.dumpDataDir('none');
    },
  };
}

const LISTEN_RETRY_MIN_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;

function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid SQL identifier: ${name}`);
  return name;
}
