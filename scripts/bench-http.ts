import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { HISTORY_PAGE_DEFAULT } from '@pm/core/contract/history-query';
import { MARKETS_PAGE_DEFAULT } from '@pm/core/contract/markets';
import { USER_BETS_PAGE_DEFAULT } from '@pm/core/contract/users';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { claimableBetViews } from '../apps/server/src/claimable-bet-views.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import * as schema from '../apps/server/src/db/schema.ts';
import { readClaimable } from '../apps/server/src/escrow/claims/claimable.ts';
import { listHistory, summarizeHistory } from '../apps/server/src/history/history-repository.ts';
import { readLeaderboard } from '../apps/server/src/leaderboard/user-stats-repository.ts';
import {
  countMarketParticipants,
  countOpenMarketsByCategory,
  findMarket,
  listMarketBets,
  listOpenMarkets,
  listUserBets,
} from '../apps/server/src/markets/markets-repository.ts';
import { MARKET_DETAIL_BETS_LIMIT } from '../apps/server/src/markets/markets-service.ts';
import { listRoundsForDisplay } from '../apps/server/src/oracle/oracle-repository.ts';
import { latestPriceSample } from '../apps/server/src/prices/price-samples-repository.ts';
import type { SeededScale } from '../apps/server/test/support/seed-scale.ts';
import type { BenchReport, HotTarget } from './bench-report.ts';
import { peakRss } from './process-stats.ts';

// Hot reads: each endpoint at 10 and 100 connections against the API, and against its two
// ceilings (the same bytes from bare node:http; the same SQL through a bare pg pool).

type Endpoint = { name: string; target: HotTarget; path: string; reads: (db: Db) => Promise<unknown> };

function endpoints(seeded: SeededScale): Endpoint[] {
  return [
    {
      name: 'open markets (all)',
      target: 'page',
      path: '/api/markets',
      reads: async (db) => {
        await listOpenMarkets(db, { category: undefined, limit: MARKETS_PAGE_DEFAULT + 1 });
        await countOpenMarketsByCategory(db);
      },
    },
    {
      name: 'open markets (sports)',
      target: 'page',
      path: '/api/markets?category=sports',
      reads: async (db) => {
        await listOpenMarkets(db, { category: 'sports', limit: MARKETS_PAGE_DEFAULT + 1 });
        await countOpenMarketsByCategory(db);
      },
    },
    {
      name: 'one market, 1,000 bets',
      target: 'page',
      path: `/api/markets/${seeded.busyMarketId}`,
      reads: async (db) => {
        await findMarket(db, seeded.busyMarketId);
        await listMarketBets(db, seeded.busyMarketId, MARKET_DETAIL_BETS_LIMIT + 1);
        await countMarketParticipants(db, seeded.busyMarketId);
      },
    },
    {
      name: 'a user’s bets',
      target: 'wallet',
      path: `/api/users/${seeded.busyAddress}/bets`,
      reads: (db) => listUserBets(db, { address: seeded.busyAddress, limit: USER_BETS_PAGE_DEFAULT + 1 }),
    },
    {
      name: 'claimable',
      target: 'wallet',
      path: `/api/users/${seeded.busyAddress}/claimable`,
      reads: (db) => readClaimable(db, seeded.busyAddress, claimableBetViews),
    },
    {
      name: 'a user’s history',
      target: 'wallet',
      path: `/api/users/${seeded.busyAddress}/history`,
      reads: (db) =>
        listHistory(db, {
          address: seeded.busyAddress,
          game: 'all',
          status: 'all',
          limit: HISTORY_PAGE_DEFAULT + 1,
        }),
    },
    {
      name: 'public profile (P&L)',
      target: 'wallet',
      path: `/api/users/${seeded.busyAddress}/summary`,
      reads: (db) => summarizeHistory(db, { address: seeded.busyAddress, game: 'all' }),
    },
    {
      name: 'leaderboard',
      target: 'public',
      path: '/api/leaderboard',
      reads: (db) => readLeaderboard(db, 100),
    },
    {
      name: 'oracle rounds',
      target: 'public',
      path: '/api/oracle/rounds',
      reads: (db) => listRoundsForDisplay(db),
    },
    {
      name: 'price',
      target: 'public',
      path: '/api/prices/BNB',
      reads: (db) => latestPriceSample(db, 'simulated'),
    },
  ];
}

type Run = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function load(url: string, connections: number, durationS: number): Promise<Run> {
  const result = await autocannon({ url, connections, duration: durationS, pipelining: 1 });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Waits until the server answers a small database read promptly: autocannon stops sending when its
 * time is up, but a server behind on a heavy endpoint still works through its queue (its pool of
 * database connections too), and the next run would pay for it. /api/health would not tell: it
 * caches its database check, and the price's sample is cached unless the request asks afresh.
 */
async function quiet(baseUrl: string): Promise<void> {
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    const started = performance.now();
    // The fresh-read cookie skips the response cache (decision 017), so this reads the database.
    await fetch(`${baseUrl}/api/prices/BNB`, { headers: { cookie: 'pm_fresh=1' } })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
    if (performance.now() - started < 100) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

async function startCeiling(config: unknown): Promise<{ baseUrl: string; stop: () => void }> {
  const file = join(tmpdir(), `pm-bench-ceiling-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify(config, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
  );
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts/bench-ceiling-server.ts'), file],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`ceiling server exited with ${code}`)));
  });
  rmSync(file, { force: true }); // read at start-up
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

export async function measureHotReads(input: {
  report: BenchReport;
  baseUrl: string;
  db: Db;
  dbUrl: string;
  seeded: SeededScale;
  serverPid: number;
  durationS: number;
  /** Words of the endpoints' names to measure (default: all). */
  only?: string[] | undefined;
  log: (line: string) => void;
}): Promise<void> {
  const { report, baseUrl, seeded, log, only } = input;
  const list = endpoints(seeded).filter(
    (endpoint) => !only || only.some((word) => endpoint.name.includes(word)),
  );

  // What the API answers (the bytes ceiling serves it) and the SQL it sends (the SQL ceiling runs it).
  const captured: Array<{ text: string; params: unknown[] }> = [];
  const capturePool = new pg.Pool({ connectionString: input.dbUrl, max: 1 });
  const captureDb: Db = drizzle(capturePool, {
    schema,
    logger: { logQuery: (text, params) => captured.push({ text, params }) },
  });
  const bytesRoutes: Record<string, { body: string; contentType: string; queries: typeof captured }> = {};
  const sqlRoutes: typeof bytesRoutes = {};
  try {
    for (const endpoint of list) {
      const response = await fetch(baseUrl + endpoint.path);
      const body = await response.text();
      if (!response.ok)
        throw new Error(`${endpoint.path} answered ${response.status}: ${body.slice(0, 200)}`);
      captured.length = 0;
      await endpoint.reads(captureDb);
      const contentType = response.headers.get('content-type') ?? 'application/json';
      bytesRoutes[endpoint.path] = { body, contentType, queries: [] };
      sqlRoutes[endpoint.path] = { body: '', contentType, queries: [...captured] };
    }
  } finally {
    // Ended on a failure too: an idle client of it would die with the database dropped at the end, and
    // its error would hide the failure's own.
    await capturePool.end();
  }

  const bytes = await startCeiling({ mode: 'bytes', routes: bytesRoutes });
  const sql = await startCeiling({ mode: 'sql', databaseUrl: input.dbUrl, routes: sqlRoutes });
  try {
    const { peakMb } = await peakRss(input.serverPid, async () => {
      for (const endpoint of list) {
        for (const connections of [10, 100]) {
          await quiet(baseUrl);
          const api = await load(baseUrl + endpoint.path, connections, input.durationS);
          const bare = await load(bytes.baseUrl + endpoint.path, connections, input.durationS);
          const sqlOnly = await load(sql.baseUrl + endpoint.path, connections, input.durationS);
          const row = {
            name: endpoint.name,
            target: endpoint.target,
            connections,
            bytes: Buffer.byteLength(bytesRoutes[endpoint.path]?.body ?? ''),
            api,
            httpCeiling: bare,
            sqlCeiling: sqlOnly,
          };
          report.hot.push(row);
          log(
            `${endpoint.name.padEnd(24)} c=${String(connections).padStart(3)}  api ${api.rps.toFixed(0)} req/s p99 ${api.p99} ms` +
              `  http ${bare.rps.toFixed(0)}  sql ${sqlOnly.rps.toFixed(0)}` +
              (api.non2xx || api.errors ? `  (${api.non2xx} non-2xx, ${api.errors} errors)` : ''),
          );
        }
      }
    });
    report.rssPostgresMb = peakMb;
  } finally {
    bytes.stop();
    sql.stop();
  }
}

/** Peak RSS of an instance while the public reads run at 100 connections, one after another. */
export async function measurePgliteRss(baseUrl: string, pid: number, durationS: number): Promise<number> {
  const { peakMb } = await peakRss(pid, async () => {
    for (const path of ['/api/markets', '/api/oracle/rounds', '/api/leaderboard', '/api/prices/BNB']) {
      await load(baseUrl + path, 100, durationS);
    }
  });
  return peakMb;
}
