import WebSocket from 'ws';
import type { Db } from '../apps/server/src/db/client.ts';
import { publish } from '../apps/server/src/realtime/publish.ts';
import { peakRss } from './bench-http.ts';
import { percentile } from './bench-report.ts';

// Realtime delivery (issue 12): N WebSocket clients on one instance; one event is committed to the
// outbox (as every change does) and the time from before that commit to each client's receipt is
// recorded. The clients live in this process, so their own event loop is part of the figure.

const EVENTS = 5;
const OPEN_BATCH = 500;

export type RealtimeResult = {
  clients: number;
  events: number;
  delivered: number;
  p50: number;
  p99: number;
  max: number;
  rssMb: number;
};

export async function measureRealtime(input: {
  baseUrl: string;
  db: Db;
  clients: number;
  serverPid: number;
  log: (line: string) => void;
}): Promise<RealtimeResult> {
  const wsUrl = `${input.baseUrl.replace(/^http/, 'ws')}/api/realtime`;
  const sockets: WebSocket[] = [];
  let sentAt = 0;
  const latencies: number[] = [];
  try {
    for (let opened = 0; opened < input.clients; opened += OPEN_BATCH) {
      const batch = Math.min(OPEN_BATCH, input.clients - opened);
      await Promise.all(
        Array.from({ length: batch }, async () => {
          const socket = new WebSocket(wsUrl);
          socket.on('message', () => latencies.push(performance.now() - sentAt));
          sockets.push(socket);
          await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
            socket.once('unexpected-response', (_request, response) =>
              reject(new Error(`realtime upgrade refused: ${response.statusCode}`)),
            );
          });
        }),
      );
    }
    input.log(`realtime: ${sockets.length} clients connected`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    latencies.length = 0;
    const { peakMb } = await peakRss(input.serverPid, async () => {
      for (let event = 0; event < EVENTS; event += 1) {
        const before = latencies.length;
        sentAt = performance.now();
        await publish(input.db, { topic: 'markets', id: 1 });
        const deadline = performance.now() + 10_000;
        while (latencies.length < before + sockets.length && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    });
    const sorted = [...latencies].sort((a, b) => a - b);
    const result = {
      clients: sockets.length,
      events: EVENTS,
      delivered: latencies.length,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
      rssMb: peakMb,
    };
    input.log(
      `realtime: ${result.delivered}/${result.clients * EVENTS} deliveries, p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.terminate();
  }
}
