import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';
import { z } from 'zod';
import { statementName } from '../apps/server/src/db/prepared-rows.ts';

// The two ceilings of `npm run bench` (decision 016), each in its own process like the API server:
//   bytes: a bare node:http server answering each path with the bytes the API answered;
//   sql:   a bare node:http server running the same SQL the API runs, through a bare pg pool, as
//          named prepared statements (parsed and planned once per connection, the best the database
//          can do with that SQL), and answering the rows as JSON. What the API costs beyond these
//          is framework, validation and serialisation.
// Usage: tsx scripts/bench-ceiling-server.ts <routes.json>; prints `listening <port>` when ready.

const RoutesSchema = z.object({
  mode: z.enum(['bytes', 'sql']),
  databaseUrl: z.string().optional(),
  routes: z.record(
    z.string(),
    z.object({
      body: z.string(),
      contentType: z.string(),
      queries: z.array(z.object({ text: z.string(), params: z.array(z.unknown()) })),
    }),
  ),
});

const config = RoutesSchema.parse(JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')));
const pool = config.mode === 'sql' ? new pg.Pool({ connectionString: config.databaseUrl, max: 10 }) : null;

const server = createServer((request, response) => {
  const route = config.routes[request.url ?? ''];
  if (!route) {
    response.writeHead(404).end();
    return;
  }
  if (!pool) {
    response.writeHead(200, { 'content-type': route.contentType }).end(route.body);
    return;
  }
  Promise.all(
    route.queries.map((query) =>
      pool.query({ name: statementName(query.text), text: query.text, values: query.params }),
    ),
  ).then(
    (results) => {
      const body = JSON.stringify(results.map((result) => result.rows));
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    },
    (error: unknown) => {
      response.writeHead(500).end(String(error));
    },
  );
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool?.end();
  process.exit(0);
});
