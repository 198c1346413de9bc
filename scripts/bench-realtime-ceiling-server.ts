import { createServer } from 'node:http';
import pg from 'pg';
import { WebSocketServer } from 'ws';

// The realtime ceiling of `npm run bench` (decision 015), in its own process like the API server: a bare
// node:http + ws server that LISTENs on the same channel of the same database and writes each
// notification, as received, to every socket it holds — no Fastify, no validation, no hub, no
// per-socket state. The same clients measure it the same way as the API, so what the API costs
// beyond it is ours; what it costs itself is the machine's (a socket write per client).
// Usage: tsx scripts/bench-realtime-ceiling-server.ts <database url>; prints `listening <port>`.

const CHANNEL = 'pm_realtime';

const listener = new pg.Client({ connectionString: process.argv[2] });
await listener.connect();
const server = createServer((_request, response) => response.writeHead(426).end());
const sockets = new WebSocketServer({ server, perMessageDeflate: false });
listener.on('notification', (notification) => {
  if (notification.channel !== CHANNEL) return;
  const frame = Buffer.from(notification.payload ?? '');
  for (const socket of sockets.clients) socket.send(frame, { binary: false });
});
await listener.query(`LISTEN ${CHANNEL}`);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  for (const socket of sockets.clients) socket.terminate();
  server.close();
  void listener.end().finally(() => process.exit(0));
});
