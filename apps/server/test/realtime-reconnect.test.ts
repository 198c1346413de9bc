import { randomBytes } from 'node:crypto';
import type { RealtimeMessage } from '@pm/core/contract/realtime';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { publish } from '../src/realtime/outbox-repository.ts';
import { createRealtimeHub, REALTIME_CHANNEL } from '../src/realtime/realtime-hub.ts';

// Found by the chaos suite: after a PostgreSQL restart the listening connection was gone for good,
// and this instance's WebSocket clients heard nothing more. It is opened again, and clients are
// told to refetch what they may have missed.

const url = process.env.DATABASE_URL;
if (!url) {
  console.warn(
    '\n⚠ realtime-reconnect.test.ts SKIPPED: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it.\n',
  );
}

const schema = `t_${randomBytes(6).toString('hex')}`;
let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
let admin: pg.Client | undefined;

beforeAll(async () => {
  if (!url) return;
  database = await openDatabase({ url, schema });
  await migrate(database.db);
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});
afterAll(async () => {
  await database?.close();
  await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
});

async function eventually(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.runIf(url)(
  'a severed LISTEN connection is opened again, clients are told to refetch, and events flow again',
  async () => {
    if (!database || !admin) throw new Error('no database');
    const hub = createRealtimeHub(database, pino({ level: 'silent' }));
    await hub.start();
    const received: RealtimeMessage[] = [];
    hub.subscribe((message) => received.push(message));
    try {
      await publish(database.db, { topic: 'markets', id: 1 });
      await eventually(() => received.some((m) => m.topic === 'markets' && m.id === 1));

      // What a database restart does to the listening connection.
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN "${REALTIME_CHANNEL}"' and pid <> pg_backend_pid()`,
      );
      expect(rowCount).toBeGreaterThan(0);
      await eventually(() => received.some((m) => m.topic === 'rounds' && m.id === undefined));
      expect(received.map((m) => m.topic)).toEqual(
        expect.arrayContaining(['markets', 'rounds', 'vault', 'payouts']),
      );

      await publish(database.db, { topic: 'markets', id: 2 });
      await eventually(() => received.some((m) => m.topic === 'markets' && m.id === 2));
    } finally {
      await hub.stop();
    }
  },
);
