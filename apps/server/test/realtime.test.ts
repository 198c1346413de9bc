import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { publish } from '../src/realtime/outbox-repository.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// WS /api/realtime over a real socket, hardened as a public endpoint: it delivers events, refuses what a
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

  test('Every subscriber receives each event exactly once, as a text frame', async () => {
    const { app, url } = await listen({ WS_MAX_CONNECTIONS_PER_IP: '25' });
    const sockets = await Promise.all(Array.from({ length: 25 }, () => opened(url)));
    try {
      // Per socket: how many times the first event came, and whether the second (a marker sent
      // after it on the same socket, so it arrives after it) has come.
      const seen = sockets.map(() => ({ first: 0, frames: [] as boolean[], second: false }));
      const allSecond = new Promise<void>((resolve) => {
        sockets.forEach((socket, index) => {
          const state = seen[index];
          socket.on('message', (data, isBinary) => {
            const parsed: unknown = JSON.parse(String(data));
            if (typeof parsed !== 'object' || parsed === null || !('id' in parsed) || !state) return;
            if (parsed.id === 4201) {
              state.first += 1;
              state.frames.push(isBinary);
              expect(parsed).toEqual({ topic: 'bets', id: 4201, marketId: 9 });
            }
            if (parsed.id === 4202) state.second = true;
            if (seen.every((entry) => entry.second)) resolve();
          });
        });
      });
      await publish(t.db, { topic: 'bets', id: 4201, marketId: 9 });
      await publish(t.db, { topic: 'markets', id: 4202 });
      await allSecond;
      expect(seen.map((entry) => entry.first)).toEqual(sockets.map(() => 1));
      expect(seen.flatMap((entry) => entry.frames)).toEqual(sockets.map(() => false));
    } finally {
      await closeAll(app, sockets);
    }
  });

  test('A closed subscriber is forgotten; the others still receive events', async () => {
    const { app, url } = await listen();
    const [leaving, staying] = [await opened(url), await opened(url)];
    try {
      const closed = closeCode(leaving);
      leaving.close();
      await closed;
      const message = new Promise<void>((resolve) =>
        staying.on('message', (data) => {
          if (String(data).includes('4203')) resolve();
        }),
      );
      // Whether or not the server has seen the close yet (a closing socket is skipped), the other
      // socket gets the event.
      await publish(t.db, { topic: 'markets', id: 4203 });
      await message;
    } finally {
      await closeAll(app, [leaving, staying]);
    }
  });

  test('permessage-deflate is never negotiated, even when the client offers it', async () => {
    const { app, url } = await listen();
    const socket = new WebSocket(url, { perMessageDeflate: true });
    try {
      let extensions: string | undefined = 'not seen';
      socket.once('upgrade', (response) => {
        extensions = response.headers['sec-websocket-extensions'];
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      expect(extensions).toBeUndefined();
      expect(socket.extensions).toBe('');
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
