import { randomBytes } from 'node:crypto';
import pg from 'pg';

// A fresh PostgreSQL database per run (`chaos_<random>`), dropped at the end even on failure, so
// runs never see each other's rows and nothing is left behind on the shared server.

export async function createChaosDatabase(adminUrl: string) {
  const name = `chaos_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    host: url.hostname,
    port: Number(url.port || '5432'),
    /** The same database through another host:port (the fault proxy). */
    urlVia(host: string, port: number): string {
      const via = new URL(url.toString());
      via.hostname = host;
      via.port = String(port);
      return via.toString();
    },
    async drop(): Promise<void> {
      if (dropped) return;
      dropped = true;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export type ChaosDatabase = Awaited<ReturnType<typeof createChaosDatabase>>;
