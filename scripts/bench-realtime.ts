import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { Db } from '../apps/server/src/db/client.ts';
import { publish } from '../apps/server/src/realtime/outbox-repository.ts';
import { percentile } from './percentile.ts';
import { peakRss } from './process-stats.ts';

// Realtime delivery (decision 015): N WebSocket clients on one instance; one event is committed to
// the outbox (as every change does) and the time from before that commit to each client's receipt
// is recorded. The clients live in this process, so their own event loop is part of the figure.
// Each client must receive each event exactly once: deliveries are counted per client, so one that
// got an event twice and another that got none would show.
//
// The same clients then measure the realtime ceiling (scripts/bench-realtime-ceiling-server.ts): a
// bare ws server on the same database channel that writes each notification to every socket. The
// API's figure against it says what is ours and what is the machine's.

const EVENTS = 5;
const OPEN_BATCH = 500;

export type FanOut = {
  clients: number;
  events: number;
  delivered: number;
  /** Deliveries beyond the first of an event to one client (0 when nothing is duplicated). */
  duplicates: number;
  p50: number;
  p99: number;
  max: number;
  /** The server's CPU time per event (user = its JavaScript, system = the kernel's socket writes). */
  serverCpuMsPerEvent?: { user: number; system: number } | undefined;
  /** This process's CPU time per event: the clients' receiving side. */
  clientCpuMsPerEvent: number;
};

export type RealtimeResult = FanOut & {
  rssMb: number;
  /** The same clients and events against a bare ws server (absent without a database URL). */
  ceiling?: FanOut | undefined;
};

export async function measureRealtime(input: {
  baseUrl: string;
  db: Db;
  clients: number;
  serverPid: number;
  /** The database the API uses: the ceiling server listens on it too. */
  databaseUrl?: string;
  log: (line: string) => void;
}): Promise<RealtimeResult> {
  const wsUrl = `${input.baseUrl.replace(/^http/, 'ws')}/api/realtime`;
  let rssMb = 0;
  const api = await fanOut({
    ...input,
    wsUrl,
    label: 'realtime',
    around: async (work) => {
      const { value, peakMb } = await peakRss(input.serverPid, work);
      rssMb = peakMb;
      return value;
    },
  });
  let ceiling: FanOut | undefined;
  if (input.databaseUrl) {
    const bare = await startCeiling(input.databaseUrl);
    try {
      ceiling = await fanOut({ ...input, wsUrl: bare.wsUrl, serverPid: bare.pid, label: 'realtime ceiling' });
    } finally {
      await bare.stop();
    }
  }
  return { ...api, rssMb, ceiling };
}

async function fanOut(input: {
  wsUrl: string;
  db: Db;
  clients: number;
  serverPid: number;
  label: string;
  log: (line: string) => void;
  around?: (work: () => Promise<void>) => Promise<void>;
}): Promise<FanOut> {
  const sockets: WebSocket[] = [];
  let sentAt = 0;
  let event = -1;
  const latencies: number[] = [];
  // The last event each client received: a second receipt of it is a duplicate.
  const lastEvent: number[] = [];
  let duplicates = 0;
  try {
    for (let opened = 0; opened < input.clients; opened += OPEN_BATCH) {
      const batch = Math.min(OPEN_BATCH, input.clients - opened);
      await Promise.all(
        Array.from({ length: batch }, async () => {
          const socket = new WebSocket(input.wsUrl, { perMessageDeflate: false });
          const index = sockets.push(socket) - 1;
          lastEvent[index] = -1;
          socket.on('message', () => {
            if (lastEvent[index] === event) duplicates += 1;
            else {
              lastEvent[index] = event;
              latencies.push(performance.now() - sentAt);
            }
          });
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
    input.log(`${input.label}: ${sockets.length} clients connected`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    latencies.length = 0;
    duplicates = 0;
    const serverBefore = processCpuMs(input.serverPid);
    const clientBefore = process.cpuUsage();
    const events = async () => {
      for (event = 0; event < EVENTS; event += 1) {
        const before = latencies.length;
        sentAt = performance.now();
        await publish(input.db, { topic: 'markets', id: 1 });
        const deadline = performance.now() + 10_000;
        while (latencies.length < before + sockets.length && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };
    await (input.around ? input.around(events) : events());
    const serverAfter = processCpuMs(input.serverPid);
    const client = process.cpuUsage(clientBefore);
    const sorted = [...latencies].sort((a, b) => a - b);
    const result: FanOut = {
      clients: sockets.length,
      events: EVENTS,
      delivered: latencies.length,
      duplicates,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
      // Includes the 300 ms pauses between events, when an idle server does next to nothing.
      serverCpuMsPerEvent:
        serverBefore && serverAfter
          ? {
              user: (serverAfter.user - serverBefore.user) / EVENTS,
              system: (serverAfter.system - serverBefore.system) / EVENTS,
            }
          : undefined,
      clientCpuMsPerEvent: (client.user + client.system) / 1000 / EVENTS,
    };
    const cpu = result.serverCpuMsPerEvent;
    input.log(
      `${input.label}: ${result.delivered}/${result.clients * EVENTS} deliveries (${duplicates} duplicates), ` +
        `p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, max ${result.max.toFixed(0)} ms; ` +
        `CPU per event: server ${cpu ? `${cpu.user.toFixed(0)} ms user + ${cpu.system.toFixed(0)} ms system` : '?'}, ` +
        `clients ${result.clientCpuMsPerEvent.toFixed(0)} ms`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.terminate();
  }
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function startCeiling(databaseUrl: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts/bench-realtime-ceiling-server.ts'), databaseUrl],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`realtime ceiling server exited with ${code}`)));
  });
  return {
    wsUrl: `ws://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A process's CPU time so far from /proc (Linux), in ms; undefined elsewhere. */
function processCpuMs(pid: number): { user: number; system: number } | undefined {
  try {
    // utime and stime are fields 14 and 15; split after the command name, which may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = 100; // USER_HZ, 100 on Linux
    return { user: (Number(fields[11]) * 1000) / ticks, system: (Number(fields[12]) * 1000) / ticks };
  } catch {
    return undefined;
  }
}
