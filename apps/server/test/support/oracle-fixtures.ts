import { randomBytes } from 'node:crypto';
import type { Position } from '@pm/core/constants';
import { parseBnb } from '@pm/core/money';
import { parseUsdPrice } from '@pm/core/price';
import { roundDepositTerms } from '@pm/escrow/deposit-terms';
import { roundMarket } from '@pm/escrow/round-settlement';
import { eq, sql } from 'drizzle-orm';
import type { Hash } from 'viem';
import { createManualClock } from '../../src/chain/clock.ts';
import type { Db } from '../../src/db/client.ts';
import { oracleRounds, priceSamples } from '../../src/db/schema.ts';
import { recordOracleBet } from '../../src/oracle/place-oracle-bet.ts';
import { createRoundEngine, type RoundEngineDeps } from '../../src/oracle/round-engine.ts';
import { insertRecordedPayment } from '../../src/payments/payments-repository.ts';
import type { PriceFeed } from '../../src/prices/price-feed.ts';
import { chainNow, deposit } from './escrow-contracts.ts';
import { escrowOf } from './escrow-market-helpers.ts';
import { stakeOf } from './escrow-stakes.ts';
import type { TestApp } from './test-app.ts';
import type { TestChain } from './test-chain.ts';

// Oracle test fixtures: the engine on a manual clock, price samples and bets written directly (the
// bet endpoint has its own tests with real payments on a real chain), and a live round of a test
// app, open for deposits on the escrow.

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

/** A round stake's real deposit, as the intake verified it (see `liveRound`). */
type RoundDeposit = Awaited<ReturnType<typeof stakeOf>> & { amountWei: bigint; marketKey: Hash };

/**
 * A bet as if its payment had been verified, mined at `blockTime`: of `bnb` on no chain, or of a
 * real `deposit` (the payment and the bet name its stake, as the intake records them).
 */
export async function placeBet(
  db: Db,
  input: { epoch: number; position: Position; user: string; blockTime: Date } & (
    | { bnb: string }
    | { deposit: RoundDeposit }
  ),
) {
  const made = 'deposit' in input ? input.deposit : null;
  const amountWei = made ? made.amountWei : 'bnb' in input ? parseBnb(input.bnb) : 0n;
  const txHash = made?.txHash ?? (`0x${randomBytes(32).toString('hex')}` as const);
  return db.transaction(async (tx) => {
    const paymentId = await insertRecordedPayment(tx, {
      chainId: 31337,
      purpose: 'oracle_bet',
      payment: {
        txHash,
        from: `0x${input.user.slice(2)}`,
        amountWei,
        intentText: `pm1:round:${input.epoch}:${input.position}`,
        blockNumber: made?.blockNumber ?? 1n,
        blockTime: input.blockTime,
        // Without a deposit, a stake on no chain: the payment row needs a unique one; the bet has none.
        deposit: made
          ? { stakeId: made.stakeId, logIndex: made.logIndex, marketKey: made.marketKey }
          : {
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
      stakeId: made?.stakeId ?? null,
    });
  });
}

async function roundRow(db: Db, epoch: number) {
  const [row] = await db.select().from(oracleRounds).where(eq(oracleRounds.epoch, epoch));
  if (!row) throw new Error(`no round ${epoch}`);
  return row;
}

let feedRoundId = 100;

/**
 * The next round of the test app, live: the chain (and the server's clock) moved to just after its
 * start, then `tick` run (default every job: auto-genesis and the round engine start it). Its epoch,
 * lock and market on the escrow, and: `deposit` (a wallet's deposit for it, nothing recorded),
 * `stake` (a deposit recorded as the intake records it: the payment, and the bet naming its stake),
 * `recordStake` (the same for a deposit made another way, e.g. by a contract), `row` (the round as
 * stored) and `end` (lock and close prices, then time past the close and `tick`).
 */
export async function liveRound(t: TestApp, options: { tick?: () => Promise<unknown> } = {}) {
  const tick = options.tick ?? (() => t.runJobs());
  const { intervalS } = t.config.rounds;
  const now = await chainNow(t.chain);
  const epoch = Math.floor(now / intervalS) + 1;
  await t.advanceTime(epoch * intervalS + 2 - now);
  await tick();
  const started = await roundRow(t.db, epoch);
  if (started.status !== 'live') throw new Error(`round ${epoch} is ${started.status}, not live`);
  const market = roundMarket(epoch, started.lockTime);
  const lockTime = market.closesAt;
  const escrow = escrowOf(t);

  const depositFor = (wallet: TestChain['operator'], position: Position, amountWei: bigint) =>
    deposit(wallet, escrow, roundDepositTerms(epoch, lockTime, position), amountWei);
  async function recordStake(hash: Hash, position: Position, amountWei: bigint) {
    const made = await stakeOf(t.chain, hash);
    await placeBet(t.db, {
      epoch,
      position,
      user: made.owner.toLowerCase(),
      blockTime: made.blockTime,
      deposit: { ...made, amountWei, marketKey: market.key },
    });
    return { ...made, amount: amountWei };
  }

  return {
    epoch,
    lockTime,
    market,
    row: () => roundRow(t.db, epoch),
    deposit: depositFor,
    recordStake,
    async stake(wallet: TestChain['operator'], position: Position, amountWei: bigint) {
      return recordStake(await depositFor(wallet, position, amountWei), position, amountWei);
    },
    /** The engine's end of the round: its result and payouts (no prices: cancelled at its lock). */
    async end(prices: { lock: string; close: string } | null) {
      const round = await roundRow(t.db, epoch);
      if (prices) {
        // Feed round ids only go forward (the engine refuses one older than the last used).
        feedRoundId += 2;
        const before = (time: Date) => new Date(time.getTime() - 1000);
        await insertSample(t.db, {
          usd: prices.lock,
          at: before(round.lockTime),
          roundId: String(feedRoundId),
        });
        await insertSample(t.db, {
          usd: prices.close,
          at: before(round.closeTime),
          roundId: String(feedRoundId + 1),
        });
      }
      await t.advanceTime(Math.ceil((round.closeTime.getTime() - t.clock.now().getTime()) / 1000) + 1);
      await tick();
      return roundRow(t.db, epoch);
    },
  };
}

/** Empties every table the oracle touches, between tests sharing one database. */
export async function clearOracleTables(db: Db) {
  await db.execute(
    sql`truncate oracle_bets, oracle_rounds, price_samples, user_stats, outbox, payments restart identity cascade`,
  );
}
