import type { ErrorBody, ErrorCode } from '@pm/core/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { AppError } from '../errors/app-error.ts';
import { clientKey } from '../http/client-key.ts';
import type { RealtimeHub } from './realtime-hub.ts';

const HEARTBEAT_MS = 25_000;

/** WebSocket close codes (RFC 6455 §7.4.1). */
const POLICY_VIOLATION = 1008;
const TRY_AGAIN_LATER = 1013;

/** ws's send options for a prepared message: a whole text frame, never compressed. */
const TEXT_FRAME = { binary: false, compress: false, fin: true } as const;

export type RealtimeLimits = {
  /** Browser origins besides the server's own (CORS_ORIGINS). */
  allowedOrigins: readonly string[];
  maxConnections: number;
  maxConnectionsPerIp: number;
};

/**
 * WS /api/realtime: pushes `{topic, id?}` after commit; clients refetch what changed. The channel
 * is one-way, so a client that sends anything is closed (1008). Connections are capped per client
 * address and in total, and a browser page of another origin may not subscribe
 * (docs/security.md "Rate limits, limits on input, HTTP headers"); the 4 KiB frame limit is set where
 * the plugin is registered (app.ts).
 *
 * One event goes to every socket of this instance (10,000 and more): it is serialised once, to
 * one Buffer that every socket sends as its text frame, and the route holds one hub subscription
 * for all its sockets rather than one each. What is left per socket is ws's 2-byte frame header
 * and one write; the write (the kernel's loopback/TCP work) is most of the cost
 * (docs/benchmarks.md "Server benchmarks").
 */
export function registerRealtimeRoutes(
  app: FastifyInstance,
  hub: RealtimeHub,
  limits: RealtimeLimits,
): { connections: () => number } {
  const perIp = new Map<string, number>();
  const sockets = new Set<WebSocket>();
  let total = 0;
  const isFull = (ip: string) =>
    total >= limits.maxConnections || (perIp.get(ip) ?? 0) >= limits.maxConnectionsPerIp;

  hub.subscribe((message) => {
    if (sockets.size === 0) return;
    const frame = Buffer.from(JSON.stringify(message));
    for (const socket of sockets) {
      // A Buffer is sent as is (no copy, no re-encoding); binary: false keeps it a text frame.
      if (socket.readyState === socket.OPEN) socket.send(frame, TEXT_FRAME);
    }
  });

  app.route({
    method: 'GET',
    url: '/api/realtime',
    // Before the upgrade: refused clients get a plain HTTP answer and never a socket.
    preValidation: async (request, reply) => {
      if (!isAllowedOrigin(request, limits.allowedOrigins))
        return refuse(reply, 403, 'UNAUTHORIZED', 'This origin may not open the realtime channel.');
      if (isFull(clientKey(request.ip)))
        return refuse(reply, 429, 'RATE_LIMITED', 'Too many realtime connections from this address.');
    },
    // A plain GET (no upgrade) gets the API's error shape, not the plugin's empty 404 (test/fuzz).
    handler: async (_request, reply) => {
      reply.header('upgrade', 'websocket');
      throw new AppError('BAD_REQUEST', 'This endpoint speaks WebSocket only.', { status: 426 });
    },
    wsHandler: (socket, request) => {
      // Per client: an IPv6 client by its /64 (http/client-key.ts).
      const ip = clientKey(request.ip);
      // Checked again here: upgrades in flight at once all passed preValidation.
      if (isFull(ip)) return socket.close(TRY_AGAIN_LATER, 'too many connections');
      total += 1;
      perIp.set(ip, (perIp.get(ip) ?? 0) + 1);

      sockets.add(socket);
      socket.on('message', () => socket.close(POLICY_VIOLATION, 'this channel is server-to-client only'));
      // Keeps proxies from closing an idle socket and drops peers that stopped answering pings.
      let alive = true;
      socket.on('pong', () => {
        alive = true;
      });
      const heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, HEARTBEAT_MS);
      socket.on('close', () => {
        clearInterval(heartbeat);
        sockets.delete(socket);
        total -= 1;
        const left = (perIp.get(ip) ?? 1) - 1;
        if (left > 0) perIp.set(ip, left);
        else perIp.delete(ip);
      });
    },
  });
  return { connections: () => total };
}

/**
 * Browsers always send Origin on a WebSocket upgrade, and cookies or not, a page of another site
 * should not hold our sockets open. No Origin: not a browser (a bot could send any value anyway).
 */
function isAllowedOrigin(request: FastifyRequest, allowed: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  // Same origin: the page was served by this host (request.host honours a trusted proxy's X-Forwarded-Host).
  return URL.canParse(origin) && new URL(origin).host === request.host;
}

function refuse(reply: FastifyReply, status: 403 | 429, code: ErrorCode, message: string) {
  const body: ErrorBody = { error: { code, message } };
  return reply.code(status).send(body);
}
