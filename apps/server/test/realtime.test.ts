import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { publish } from '../src/realtime/publish.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// WS /api/realtime over a real socket (security review F12): it delivers events, refuses what a
// client sends, bounds frames, caps connections and refuses other sites' pages.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function listen(env: Record<string, string> = {}) {
  const config = loadConfig({ RPC_URL: t.chain.rpcUrl, LOG_LEVEL: 'silent', JOBS: 'false', ...env });
  const app = await createApp({ ...t.deps, config });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `${address.replace('http', 'ws')}/api/realtime`, origin: address };
}

/** Opens a socket; resolves with it once open, or with the HTTP status that refused the upgrade. */
function connect(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ socket: WebSocket } | { refused: number }>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) =>
      resolve({ refused: response.statusCode ?? 0 }),
    );
    socket.once('error', reject);
  });
}

const opened = async (url: string, headers: Record<string, string> = {}) => {
  const result = await connect(url, headers);
  if (!('socket' in result)) throw new Error(`the upgrade was refused with ${result.refused}`);
  return result.socket;
};

const closeCode = (socket: WebSocket) =>
  new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

const closeAll = async (app: FastifyInstance, sockets: WebSocket[]) => {
  for (const socket of sockets) socket.terminate();
  await app.close();
};

describe('the realtime channel', () => {
  test('A subscriber from the same origin receives committed events', async () => {
    const { app, url, origin } = await listen();
    const socket = await opened(url, { origin });
    try {
      // On PostgreSQL the test files share one database (a schema each) and NOTIFY is per database,
      // so other files' events may arrive too: wait for this one.
      const message = new Promise<unknown>((resolve) =>
        socket.on('message', (data) => {
          const parsed: unknown = JSON.parse(String(data));
          if (typeof parsed === 'object' && parsed !== null && 'id' in parsed && parsed.id === 42)
            resolve(parsed);
        }),
      );
      await publish(t.db, { topic: 'markets', id: 42 });
      expect(await message).toEqual({ topic: 'markets', id: 42 });
    } finally {
      await closeAll(app, [socket]);
    }
  });

  test('A client that sends anything is disconnected with 1008', async () => {
    const { app, url } = await listen();
    const socket = await opened(url);
    try {
      const code = closeCode(socket);
      socket.send('hello');
      expect(await code).toBe(1008);
    } finally {
      await closeAll(app, [socket]);
    }
  });

  test('A frame over 4 KiB is refused before it is buffered (1009)', async () => {
    const { app, url } = await listen();
    const socket = await opened(url);
    try {
      const code = closeCode(socket);
      socket.send(Buffer.alloc(64 * 1024));
      expect(await code).toBe(1009);
    } finally {
      await closeAll(app, [socket]);
    }
  });

  test('A page of another site cannot subscribe; a configured origin can', async () => {
    const { app, url } = await listen({ CORS_ORIGINS: 'https://app.example' });
    const sockets: WebSocket[] = [];
    try {
      expect(await connect(url, { origin: 'https://evil.example' })).toEqual({ refused: 403 });
      sockets.push(await opened(url, { origin: 'https://app.example' }));
    } finally {
      await closeAll(app, sockets);
    }
  });

  test('Connections are capped per client address, and a closed one frees its place', async () => {
    const { app, url } = await listen({ WS_MAX_CONNECTIONS_PER_IP: '2' });
    const sockets = [await opened(url), await opened(url)];
    try {
      expect(await connect(url)).toEqual({ refused: 429 });
      const [first] = sockets;
      if (!first) throw new Error('no socket');
      const closed = closeCode(first);
      first.close();
      await closed;
      // The server counts the close when its side of the socket ends; give it a moment.
      await expect
        .poll(async () => {
          const result = await connect(url);
          if ('socket' in result) sockets.push(result.socket);
          return 'socket' in result;
        })
        .toBe(true);
    } finally {
      await closeAll(app, sockets);
    }
  });

  test('Connections are capped in total', async () => {
    const { app, url } = await listen({ WS_MAX_CONNECTIONS: '1' });
    const sockets = [await opened(url)];
    try {
      expect(await connect(url)).toEqual({ refused: 429 });
    } finally {
      await closeAll(app, sockets);
    }
  });
});
