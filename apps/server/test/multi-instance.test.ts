import { randomBytes } from 'node:crypto';
import { CreateMarketResponseSchema } from '@pm/core/contract/markets';
import { RoundsResponseSchema } from '@pm/core/contract/oracle';
import { ClaimableResponseSchema } from '@pm/core/contract/users';
import { fetchTransport } from '@pm/pay-and-post/fetch-transport';
import type { Posted } from '@pm/pay-and-post/pay-and-post';
import { payAndPostBet } from '@pm/pay-and-post/pay-and-post-bet';
import { payAndPostMarket } from '@pm/pay-and-post/pay-and-post-market';
import { payAndPostOracleBet } from '@pm/pay-and-post/pay-and-post-oracle-bet';
import { walletPayer } from '@pm/pay-and-post/payer';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../src/app.ts';
import { createChainClock } from '../src/chain/clock.ts';
import { loadConfig } from '../src/config/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { bets, markets, oracleBets, outbox, userStats } from '../src/db/schema.ts';
import { deployDevEscrow } from '../src/dev/dev-escrow.ts';
import { createFeatures } from '../src/features.ts';
import { createJobRunner } from '../src/jobs/job-runner.ts';
import { createMetrics } from '../src/metrics/metrics.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// docs/architecture.md "Scale": two server instances, as behind a load balancer, on one PostgreSQL
// and one chain, every job running on both. Bets go through both; each realtime event reaches the
// sockets of both; every job's effect happens once (a round settled into the leaderboard once, a
// market closed and voided once, each claim paid once on chain); a client that reconnects to the
// other instance catches up there.

const url = process.env.DATABASE_URL;
if (!url) {
  console.warn(
    '\n⚠ multi-instance.test.ts SKIPPED: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) ' +
      'to run two server instances on one PostgreSQL.\n',
  );
}

/** A database of its own (LISTEN/NOTIFY channels are per database, so no other test hears ours). */
const databaseName = `multi_instance_${process.pid}_${randomBytes(3).toString('hex')}`;
const ROUND_INTERVAL_S = 20;
const BETTING_WINDOW_S = 10;

type Instance = Awaited<ReturnType<typeof startInstance>>;
let chain: TestChain;
/** The dev escrow every stake is deposited into (decision 026), as `npm start` deploys it. */
let escrow: `0x${string}`;
let admin: pg.Client;
let first: Instance;
let second: Instance;

function withDatabase(base: string, name: string): string {
  const parsed = new URL(base);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** One server instance as main.ts wires it: its own pool, LISTEN connection, jobs and port. */
async function startInstance(databaseUrl: string) {
  const config = loadConfig({
    RPC_URL: chain.rpcUrl,
    ESCROW_ADDRESS: escrow,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    JOBS: 'true',
    DEMO_DATA: 'false',
    PAYMENT_WAIT_MS: '5000',
    ROUND_INTERVAL_S: String(ROUND_INTERVAL_S),
    BETTING_WINDOW_S: String(BETTING_WINDOW_S),
  });
  const database: Database = await openDatabase({ url: databaseUrl, poolSize: 6 });
  await migrate(database.db);
  const clock = createChainClock(chain.testClient, { syncMs: 200 });
  await clock.start();
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps = { config, database, chain: chain.publicClient, clock, metrics: createMetrics() };
  const features = createFeatures(deps, logger);
  const app: FastifyInstance = await createApp(deps, {
    logger,
    features: features.routes,
    rateLimitPerMinute: 100_000,
  });
  const jobs = createJobRunner(features.jobs, logger);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    database,
    config,
    jobs,
    http: address,
    ws: `${address.replace('http', 'ws')}/api/realtime`,
    async stop() {
      await app.close();
      await jobs.stop();
      await features.stop?.();
      clock.stop();
      await database.close();
    },
  };
}

/** A WebSocket client that keeps every message it receives, in order. */
async function subscribe(wsUrl: string) {
  const socket = new WebSocket(wsUrl);
  const messages: string[] = [];
  socket.on('message', (data) => messages.push(String(data)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

async function eventually<T>(read: () => Promise<T | null | undefined | false>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function request(instance: Instance, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${instance.http}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

const player = (index: number) => {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no player #${index}`);
  return wallet;
};

/** Player #index paying, and posting to `instance` (asking again while it answers 202, not final yet). */
const clients = (instance: Instance, index: number) => ({
  payer: walletPayer(player(index)),
  escrow,
  api: fetchTransport(instance.http, { whilePending: { everyMs: 250, timeoutMs: 30_000 } }),
});

function recorded(posted: Posted<{ status: number; json: unknown }>) {
  const { status, json } = posted.response;
  if (status !== 201) throw new Error(`answered ${status}: ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  if (!url) return;
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  chain = await startTestChain();
  escrow = (await deployDevEscrow(chain.rpcUrl)).address;
  const databaseUrl = withDatabase(url, databaseName);
  // Both start at once, as a deployment does: migrations are serialised by an advisory lock.
  [first, second] = await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)]);
}, 60_000);

afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await chain?.stop();
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin.end();
  }
}, 30_000);

describe.skipIf(!url)('two server instances on one PostgreSQL', () => {
  test('every event reaches the sockets of both, every job acts once, and each claim is paid once', async () => {
    const onFirst = await subscribe(first.ws);
    const onSecond = await subscribe(second.ws);
    // Jobs start after both sockets listen, so both must hear exactly the same events.
    first.jobs.start();
    second.jobs.start();

    // A market created through one instance and joined through the other.
    const creator = player(0).account.address;
    const joiner = player(1).account.address;
    const terms = {
      description: 'Will two instances agree on everything?',
      category: 'crypto',
      duration: 'hourly',
    } as const;
    const created = recorded(
      await payAndPostMarket(clients(first, 0), { terms, prediction: 'YES', amountWei: parseEther('0.01') }),
    );
    const createdMarket = CreateMarketResponseSchema.parse(created).market;
    const marketId = createdMarket.id;
    recorded(
      await payAndPostBet(clients(second, 1), {
        marketId,
        escrowId: createdMarket.escrowId as `0x${string}`,
        closesAt: createdMarket.closesAt,
        prediction: 'NO',
        amountWei: parseEther('0.02'),
      }),
    );

    // Oracle bets on the live round (rounds start by themselves on the local chain), one through
    // each instance.
    const live = await eventually(async () => {
      const rounds = RoundsResponseSchema.parse((await request(second, 'GET', '/api/oracle/rounds')).json);
      const current = rounds.current;
      if (current?.status !== 'live') return null;
      return Date.parse(current.lockTime) - Date.parse(rounds.serverTime) > 5_000 ? current : null;
    }, 60_000);
    const placeRoundBet = async (
      instance: Instance,
      index: number,
      position: 'bull' | 'bear',
      bnb: string,
    ) => {
      const bet = {
        epoch: live.epoch,
        lockTime: Date.parse(live.lockTime) / 1000,
        position,
        amountWei: parseEther(bnb),
      };
      recorded(await payAndPostOracleBet(clients(instance, index), bet));
    };
    await placeRoundBet(first, 0, 'bull', '0.01');

    // A client of the first instance drops; a bet goes through the second meanwhile; the client
    // reconnects to the second (the load balancer chose it) and finds the bet there, then hears
    // what happens next there.
    await onFirst.close();
    await placeRoundBet(second, 1, 'bear', '0.02');
    const reconnected = await subscribe(second.ws);
    const afterReconnect = RoundsResponseSchema.parse(
      (await request(second, 'GET', '/api/oracle/rounds')).json,
    );
    const seen = [afterReconnect.current, afterReconnect.previous].find(
      (round) => round?.epoch === live.epoch,
    );
    expect(BigInt(seen?.totalDownWei ?? 0)).toBe(parseEther('0.02'));

    // The round ends (both engines tick every second): it is settled into the leaderboard once.
    const ended = await eventually(
      async () => {
        const rounds = RoundsResponseSchema.parse((await request(first, 'GET', '/api/oracle/rounds')).json);
        const round = [rounds.previous, ...rounds.recent].find((r) => r?.epoch === live.epoch);
        return round?.status === 'ended' ? round : null;
      },
      (ROUND_INTERVAL_S + 15) * 1000,
    );
    expect(reconnected.messages.map((m) => JSON.parse(m))).toContainEqual({
      topic: 'rounds',
      id: live.epoch,
    });

    // Past the deadline, then past the resolution timeout: closed once, voided once (no AI, no
    // operator), every stake refundable.
    await chain.advanceTime(3600 + 60);
    const marketStatus = async () => {
      const [row] = await first.database.db.select().from(markets).where(eq(markets.id, marketId));
      return row?.status;
    };
    await eventually(async () => (await marketStatus()) === 'settling');
    await chain.advanceTime(first.config.ai.resolutionTimeoutS + 60);
    await eventually(async () => (await marketStatus()) === 'settled');

    // Each player claims through both instances at the same moment: paid once, to the wei.
    const players = [creator, joiner];
    // Every stake is on the escrow (decision 026): the round's and the voided market's payouts open
    // once their settlement is final there and its delay has passed on the chain's clock; the claimable
    // answer then carries each bet's escrow claim.
    await eventually(async () => {
      const chainNow = Number((await chain.publicClient.getBlock()).timestamp) * 1000;
      for (const address of players) {
        const claimable = ClaimableResponseSchema.parse(
          (await request(second, 'GET', `/api/users/${address}/claimable`)).json,
        );
        for (const bet of [...claimable.oracle.bets, ...claimable.markets.bets]) {
          if (!bet.escrowClaim || Date.parse(bet.escrowClaim.claimableAt) > chainNow) {
            await chain.advanceTime(30);
            return false;
          }
        }
      }
      return true;
    }, 90_000);
    const owed = new Map<string, bigint>();
    for (const address of players) {
      const claimable = ClaimableResponseSchema.parse(
        (await request(second, 'GET', `/api/users/${address}/claimable`)).json,
      );
      owed.set(address, BigInt(claimable.markets.totalWei) + BigInt(claimable.oracle.totalWei));
    }
    expect(owed.get(creator)).toBeGreaterThanOrEqual(parseEther('0.01'));
    // The second instance keeps the creator's claimable, as it answered it (decision 032): read
    // until kept (a read during which a change of a round arrives, both engines ticking, is not).
    await eventually(async () => {
      await request(second, 'GET', `/api/users/${creator}/claimable`);
      return second.app.walletReads.cachedReads(creator).includes('claimable');
    });
    const before = new Map<string, bigint>();
    for (const address of players) before.set(address, await chain.publicClient.getBalance({ address }));
    // The joiner claims through both instances at the same moment; the creator through the first alone.
    const claims = await Promise.all([
      request(first, 'POST', '/api/claims', { userAddress: creator, scope: 'all' }),
      ...[first, second].map((instance) =>
        request(instance, 'POST', '/api/claims', { userAddress: joiner, scope: 'all' }),
      ),
    ]);
    for (const claim of claims) expect([200, 202, 409]).toContain(claim.status);
    // Relayed from the escrow by the operator key, whichever instance took the request: each stake
    // once (the contract zeroes it), so each player is paid exactly what it was owed, never more.
    const paidOf = async (address: `0x${string}`) =>
      (await chain.publicClient.getBalance({ address })) - (before.get(address) ?? 0n);
    await eventually(async () => {
      for (const address of players) if ((await paidOf(address)) < (owed.get(address) ?? 0n)) return false;
      return true;
    }, 60_000).catch(() => {});
    for (const address of players) {
      expect(await paidOf(address), `${address} was paid once`).toBe(owed.get(address));
    }
    // Once the creator's payouts are recorded (by the first instance's claim, or a job of either),
    // the second instance's next read of its claimable owes nothing: the change dropped the copy it
    // kept, across instances, on PostgreSQL's channel.
    const creatorsStakes = async () => [
      ...(await first.database.db
        .select({ status: bets.status })
        .from(bets)
        .where(eq(bets.userAddress, creator.toLowerCase()))),
      ...(await first.database.db
        .select({ status: sql<string>`case when ${oracleBets.claimed} then 'claimed' else 'open' end` })
        .from(oracleBets)
        // A lost round bet pays nothing and is never claimed.
        .where(and(eq(oracleBets.userAddress, creator.toLowerCase()), sql`${oracleBets.payoutAmount} > 0`))),
    ];
    await eventually(async () => (await creatorsStakes()).every((stake) => stake.status === 'claimed'));
    const afterClaim = ClaimableResponseSchema.parse(
      (await request(second, 'GET', `/api/users/${creator}/claimable`)).json,
    );
    expect(BigInt(afterClaim.markets.totalWei) + BigInt(afterClaim.oracle.totalWei)).toBe(0n);

    // Each bet counted once, the round settled into the leaderboard once (a refund counts as
    // neither won nor settled), and the market announced closed once and voided once.
    const stats = await first.database.db
      .select()
      .from(userStats)
      .where(
        inArray(
          userStats.address,
          players.map((address) => address.toLowerCase()),
        ),
      );
    expect(stats).toHaveLength(2);
    for (const row of stats) {
      expect(row.totalBets).toBe(2);
      expect(row.settledBets).toBe(ended.result === 'bull' || ended.result === 'bear' ? 1 : 0);
    }
    const roundBets = await first.database.db
      .select()
      .from(oracleBets)
      .where(eq(oracleBets.epoch, live.epoch));
    expect(roundBets).toHaveLength(2);
    const marketBets = await first.database.db.select().from(bets).where(eq(bets.marketId, marketId));
    expect(marketBets).toHaveLength(2);
    // Paid by the escrow (a stake each).
    for (const bet of marketBets) {
      expect(bet).toMatchObject({ status: 'claimed' });
      expect(bet.stakeId).not.toBeNull();
    }
    const marketEvents = await first.database.db
      .select()
      .from(outbox)
      .where(
        and(eq(outbox.topic, 'markets'), sql`${outbox.payload} = ${JSON.stringify({ id: marketId })}::jsonb`),
      );
    // Created, joined, closed, voided, and its refund final on the escrow (once, whichever job saw it).
    expect(marketEvents).toHaveLength(5);

    // Every committed event reached the second instance's socket once. Sockets hear events in
    // commit order (outbox ids are taken at insert, so they may differ): the first instance's
    // socket heard the same sequence up to when it left, and the client that reconnected to the
    // second heard the same sequence from when it joined.
    await Promise.all([first.jobs.stop(), second.jobs.stop()]);
    const committed = await first.database.db.select().from(outbox).orderBy(outbox.id);
    await eventually(async () => onSecond.messages.length >= committed.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Compared with keys sorted: jsonb keeps its own key order.
    const stable = (value: unknown) =>
      JSON.stringify(value, (_key, inner: unknown) =>
        inner && typeof inner === 'object' && !Array.isArray(inner)
          ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
          : inner,
      );
    const expected = committed.map((row) => stable({ topic: row.topic, ...row.payload })).sort();
    expect(onSecond.messages.map((message) => stable(JSON.parse(message))).sort()).toEqual(expected);
    expect(onFirst.messages.length).toBeGreaterThan(0);
    expect(onFirst.messages).toEqual(onSecond.messages.slice(0, onFirst.messages.length));
    expect(reconnected.messages.length).toBeGreaterThan(0);
    expect(reconnected.messages).toEqual(onSecond.messages.slice(-reconnected.messages.length));

    await onSecond.close();
    await reconnected.close();
  }, 180_000);
});
