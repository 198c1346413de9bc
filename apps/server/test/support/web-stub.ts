import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback stand-in for "the web" (docs/decisions/018): pages, redirects, slow and endless bodies, and
// search engines' JSON, served by a real HTTP server on 127.0.0.1. Tests and the evidence bench set
// what each path answers and read which paths were asked for, and how many sockets were closed on it.

/**
 * 'hang' never answers; 'flood' streams an endless text/html body until the client hangs up;
 * `delayMs` waits before answering.
 */
export type WebReply =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number }
  | { redirect: string; status?: number }
  | 'hang'
  | 'flood';

export type WebRequest = {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

export type WebStub = Awaited<ReturnType<typeof startWebStub>>;

export function html(title: string, bodyHtml: string): WebReply {
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${title}</title></head><body>${bodyHtml}</body></html>`,
  };
}

export function json(value: unknown, status = 200): WebReply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

function flood(res: ServerResponse, onClosed: () => void) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  res.writeHead(200, { 'content-type': 'text/html' });
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) {
      // keep writing until the socket pushes back
    }
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => {
    res.removeAllListeners('drain');
    onClosed();
  });
  pump();
}

export async function startWebStub() {
  const routes = new Map<string, WebReply | ((request: WebRequest) => WebReply)>();
  const requests: WebRequest[] = [];
  let closedFloods = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: WebRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const pathname = request.path.split('?')[0] ?? '/';
      const route = routes.get(request.path) ?? routes.get(pathname);
      const reply =
        typeof route === 'function' ? route(request) : (route ?? { status: 404, body: 'not found' });
      if (reply === 'hang') return;
      if (reply === 'flood') return flood(res, () => closedFloods++);
      if ('redirect' in reply) {
        res.writeHead(reply.status ?? 302, { location: reply.redirect }).end();
        return;
      }
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'text/html' });
        res.end(reply.body ?? '');
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, reply.delayMs);
        timers.add(timer);
      } else answer();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    /** The allow-list entry for this server. */
    host: `127.0.0.1:${port}`,
    origin,
    url: (path: string) => `${origin}${path}`,
    requests,
    /** Paths asked for (query included). */
    paths: () => requests.map((request) => request.path),
    /** The most requests open at once since the last reset. */
    maxInFlight: () => maxInFlight,
    resetMaxInFlight() {
      maxInFlight = inFlight;
    },
    /** How many endless bodies the client stopped reading (the socket closed). */
    closedFloods: () => closedFloods,
    route(path: string, reply: WebReply | ((request: WebRequest) => WebReply)) {
      routes.set(path, reply);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
