import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/app-error.ts';
import type { RealtimeHub } from './realtime-hub.ts';

const HEARTBEAT_MS = 25_000;

/** WS /api/realtime: pushes `{topic, id?}` after commit; clients refetch what changed. */
export function registerRealtimeRoutes(app: FastifyInstance, hub: RealtimeHub): void {
  app.route({
    method: 'GET',
    url: '/api/realtime',
    // A plain GET (no upgrade) gets the API's error shape, not the plugin's empty 404 (test/fuzz).
    handler: async (_request, reply) => {
      reply.header('upgrade', 'websocket');
      throw new AppError('BAD_REQUEST', 'This endpoint speaks WebSocket only.', { status: 426 });
    },
    wsHandler: (socket) => {
      const unsubscribe = hub.subscribe((message) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      });
      // Keeps proxies from closing an idle socket and notices dead peers.
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
        unsubscribe();
      });
    },
  });
}
