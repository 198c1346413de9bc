import { randomBytes } from 'node:crypto';
import type { Position } from '@pm/core/constants';
import { parseBnb } from '@pm/core/money';
import { parseUsdPrice } from '@pm/core/price';
import { sql } from 'drizzle-orm';
import { createManualClock } from '../../src/chain/clock.ts';
import type { Db } from '../../src/db/client.ts';
import { priceSamples } from '../../src/db/schema.ts';
import { recordOracleBet } from '../../src/oracle/place-oracle-bet.ts';
import { createRoundEngine, type RoundEngineDeps } from '../../src/oracle/round-engine.ts';
import { insertRecordedPayment } from '../../src/payments/payments-repository.ts';
import type { PriceFeed } from '../../src/prices/price-feed.ts';

// Oracle test fixtures: the engine on a manual clock, price samples and bets written directly (the
// bet endpoint has its own tests with real payments on a real chain).

/** 2025-06-01T12:00:00Z: a 600 s boundary, so epoch E starts exactly at noon. */
export const NOON_S = 1_748_779_200;
const TIMINGS = { intervalS: 600, bettingWindowS: 300 };
export const NOON_EPOCH = NOON_S / TIMINGS.intervalS;

export const at = (offsetS: number) => new Date((NOON_S + offsetS) * 1000);

/** ORACLE_FEED_WAIT_S's default, for an engine given a feed without a wait of its own. */
export const FEED_WAIT_S = 1800;

export function createTestEngine(
  db: Db,
  overrides: Partial<RoundEngineDeps> & {
    clock?: ReturnType<typeof createManualClock>;
    feed?: Pick<PriceFeed, 'roundAt'>;
    feedWaitS?: number;
  } = {},
) {
  const { feed, feedWaitS = FEED_WAIT_S, ...rest } = overrides;
  const clock = overrides.clock ?? createManualClock(at(0));
  const engine = createRoundEngine({
    db,
    clock,
    timings: TIMINGS,
    feeBps: 0,
    maxAgeS: 120,
    priceSource: 'simulated',
    autoGenesis: false,
    ...rest,
    recovery: feed && { feed, waitS: feedWaitS },
  });
  return { engine, clock };
}

export async function insertSample(
  db: Db,
  input: {
    usd: string;
    at: Date;
    updatedAt?: Date;
    roundId?: string | null;
    source?: 'chainlink' | 'ticker' | 'simulated';
  },
) {
  await db.insert(priceSamples).values({
    source: input.source ?? 'simulated',
    price: parseUsdPrice(input.usd),
    feedRoundId: input.roundId ?? null,
    updatedAt: input.updatedAt ?? input.at,
    sampledAt: input.at,
  });
}

export const PLAYERS = [
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0x90f79bf6eb2c4f870365e51c161e4c3ae2b5c8dd',
  '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65',
] as const;

/** A bet as if its payment had been verified, mined at `blockTime`. */
export async function placeBet(
  db: Db,
  input: { epoch: number; position: Position; bnb: string; user: string; blockTime: Date },
) {
  const amountWei = parseBnb(input.bnb);
  const txHash = `0x${randomBytes(32).toString('hex')}` as const;
  return db.transaction(async (tx) => {
    const paymentId = await insertRecordedPayment(tx, {
      chainId: 31337,
      purpose: 'oracle_bet',
      payment: {
        txHash,
        from: `0x${input.user.slice(2)}`,
        amountWei,
        intentText: `pm1:round:${input.epoch}:${input.position}`,
        blockNumber: 1n,
        blockTime: input.blockTime,
        // A stake on no chain: the payment row needs a unique one; the bet itself has none.
        deposit: {
          stakeId: BigInt(`0x${randomBytes(8).toString('hex')}`),
          logIndex: 0,
          marketKey: `0x${randomBytes(32).toString('hex')}`,
        },
      },
    });
    return recordOracleBet(tx, {
      epoch: input.epoch,
      position: input.position,
      userAddress: input.user,
      amountWei,
      paymentId,
      txHash,
      blockTime: input.blockTime,
    });
  });
}

/** Empties every table the oracle touches, between tests sharing one database. */
export async function clearOracleTables(db: Db) {
  await db.execute(
    sql`truncate oracle_bets, oracle_rounds, price_samples, user_stats, outbox, payments restart identity cascade`,
  );
}
