import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

// A loopback TCP proxy in front of PostgreSQL. `outage(ms)` severs every open connection and
// refuses new ones for that long: to the server it looks exactly like PostgreSQL restarting.
// Chosen over a real `pg_ctlcluster restart` because a proxy cannot leave the machine's shared
// database down for the other suites if this run dies half-way (docs/chaos.md).

export async function startPgFaultProxy(options: { upstreamHost: string; upstreamPort: number }) {
  const open = new Set<Socket>();
  let downUntil = 0;
  let outages = 0;

  const server = createServer((client) => {
    if (Date.now() < downUntil) {
      client.destroy();
      return;
    }
    const upstream = connect(options.upstreamPort, options.upstreamHost);
    open.add(client);
    open.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the PostgreSQL proxy got no port');

  return {
    port: address.port,
    outageCount: () => outages,
    /** Severs every connection now and refuses new ones for `ms`. */
    outage(ms: number) {
      outages += 1;
      downUntil = Date.now() + ms;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    isDown: () => Date.now() < downUntil,
    async close() {
      for (const socket of open) socket.destroy();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

export type PgFaultProxy = Awaited<ReturnType<typeof startPgFaultProxy>>;
