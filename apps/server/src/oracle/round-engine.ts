import type { RoundCancelReason } from '@pm/core/contract/oracle';
import { isFreshFor } from '@pm/core/feed-rounds';
import { formatUsdPrice } from '@pm/core/price';
import { epochAt, type RoundTimings, roundResult, roundSchedule, roundStatusAt } from '@pm/core/rounds';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import { queueRoundSettlement } from '../escrow/settlements/queue-round-settlement.ts';
import type { Job } from '../jobs/job-runner.ts';
import { recordRoundSettlement } from '../leaderboard/user-stats-repository.ts';
import type { FeedWaitMetrics } from '../metrics/metrics.ts';
import type { PriceFeed, PriceSource } from '../prices/price-feed.ts';
import { priceSampleAt } from '../prices/price-samples-repository.ts';
import { publish } from '../realtime/outbox-repository.ts';
import {
  anyRoundExists,
  cancelRound,
  endRoundAt,
  insertRound,
  isRoundOpen,
  lastUsedFeedRoundId,
  lockOpenRounds,
  lockRoundAt,
  lockRoundEngine,
  markRoundLive,
  settleRoundPayouts,
  tryLockRoundEngine,
} from './oracle-repository.ts';
import type { RoundRow, StoredRoundResult } from './oracle-rounds.ts';

// The round engine (docs/architecture.md "Oracle rounds", docs/product.md §4). Round n runs on the n-th ROUND_INTERVAL_S
// boundary: upcoming → live at start → locked at lock (lock price) → ended at close (close price,
// result, payouts). Prices come from the stored samples at or just before each instant, never
// from a live read, so a tick that runs late (or twice) decides exactly what a punctual one would.
// When the samples missed an instant (the sampler was starved or down), the feed is asked for its
// own round at that instant, outside the transaction; a round is cancelled
// only when the feed has no fresh round there either, never because the feed could not be asked
// (that is retried on the next tick), so starving the sampler buys a loser nothing. The wait is
// bounded: a feed still unreachable ORACLE_FEED_WAIT_S after the instant cancels the round
// (price_feed_unreachable, logged as an error), and the rounds held behind it go on.
//
// Safe on every instance at once (docs/architecture.md "Scale"): a tick runs in one transaction under a
// try-advisory-lock (another instance busy → this one skips), and every transition is also a
// conditional update, so nothing happens twice even without the lock.
//
// Started/stopped is the data itself: the engine runs while some round is upcoming, live or
// locked. Genesis creates the first rounds; reset cancels and refunds every open round, which
// stops it. With `autoGenesis` (local chain) a database that never had a round starts by itself.

export type CancelReason = RoundCancelReason;

export type EngineReport = {
  created: number[];
  started: number[];
  locked: number[];
  ended: Array<{ epoch: number; result: StoredRoundResult; reason?: CancelReason }>;
};

export type RoundEngineDeps = {
  db: Db;
  clock: Clock;
  timings: RoundTimings;
  feeBps: number;
  /** ORACLE_MAX_AGE_S: a price older than this at the instant counts as missing. */
  maxAgeS: number;
  priceSource: PriceSource;
  autoGenesis: boolean;
  logger?: FastifyBaseLogger;
  /** Rounds waiting for an unreachable feed, and cancelled for it (bnbpredict_price_feed_*). */
  metrics?: FeedWaitMetrics;
  /**
   * The BNB feed, asked for its own round at a lock or close its samples missed, and for how long
   * after that instant it is waited for while it cannot be asked (ORACLE_FEED_WAIT_S, in seconds).
   * The ops CLI's engine has none (it only starts and resets rounds); without one a missed price cancels.
   */
  recovery?: { feed: Pick<PriceFeed, 'roundAt'>; waitS: number };
  /**
   * The escrow contract the rounds' stakes are on (ESCROW_ADDRESS): a round that ends with stakes
   * there gets its settlement queued in the same transaction (docs/architecture.md "Rounds on the
   * escrow"). Unset: nothing is settled on chain (no escrow configured).
   */
  escrow?: EscrowTarget;
};

type FeedReading = { price: bigint; updatedAt: Date; roundId: string | null };
/** The feed's answer at an instant: its reading, null (no fresh round), or 'unreachable' past the wait. */
type Recovered = FeedReading | null | 'unreachable';

/**
 * One pass of a tick: the feed's answers so far, the instant it must be asked next, and how many
 * rounds due for their lock or close are held meanwhile.
 */
type Pass = {
  lastRoundId: bigint | null;
  recovered: ReadonlyMap<number, Recovered>;
  askFeed: Date | null;
  waiting: number;
};

const WARN_EVERY_MS = 60_000;

export function createRoundEngine(deps: RoundEngineDeps) {
  const emptyReport = (): EngineReport => ({ created: [], started: [], locked: [], ended: [] });
  let lastWarnedAt = 0;

  /**
   * One step of the world: every transition whose instant has passed, then the rounds ahead. A pass
   * that finds no sample for an instant stops before it; the feed is asked outside the transaction
   * and the next pass goes on with its answer. Each pass adds an instant to `recovered`, so a tick
   * ends after at most one pass per open round's lock and close.
   */
  async function tick(): Promise<EngineReport> {
    const report = emptyReport();
    const recovered = new Map<number, Recovered>();
    for (;;) {
      const state = await pass(recovered);
      // Another instance holds the engine this tick: it reports what waits.
      if (!state) return report;
      addTo(report, state.report);
      for (const ended of state.report.ended) {
        if (ended.reason === 'price_feed_unreachable') deps.metrics?.countFeedUnreachable('oracle_round');
      }
      if (!state.askFeed || !deps.recovery) {
        deps.metrics?.recordFeedWaiting('oracle_round', 0);
        return report;
      }
      const answer = await askFeedAt(deps.recovery.feed, state.askFeed);
      if (answer !== undefined) recovered.set(state.askFeed.getTime(), answer);
      else if (deps.clock.now().getTime() >= state.askFeed.getTime() + deps.recovery.waitS * 1000) {
        // Unreachable for ORACLE_FEED_WAIT_S: the next pass cancels the round, and the rest go on.
        recovered.set(state.askFeed.getTime(), 'unreachable');
      } else {
        // The feed could not be asked: the round waits, and the next tick asks again.
        deps.metrics?.recordFeedWaiting('oracle_round', state.waiting);
        return report;
      }
    }
  }

  /** One transaction of a tick: its transitions, committed; null when another instance holds the engine. */
  async function pass(recovered: Pass['recovered']): Promise<(Pass & { report: EngineReport }) | null> {
    return deps.db.transaction(async (tx) => {
      const report = emptyReport();
      if (!(await tryLockRoundEngine(tx))) return null;
      const nowMs = deps.clock.now().getTime();
      const open = await lockOpenRounds(tx);
      const state: Pass = { lastRoundId: null, recovered, askFeed: null, waiting: 0 };
      if (open.length === 0) {
        if (!deps.autoGenesis || (await anyRoundExists(tx))) return { ...state, report };
        await createRoundsAhead(tx, nowMs, report);
      } else {
        state.lastRoundId = await lastUsedFeedRoundId(tx, deps.priceSource);
        for (const round of open) await advance(tx, round, nowMs, state, report);
        await createRoundsAhead(tx, nowMs, report);
      }
      await announce(tx, report);
      return { ...state, report };
    });
  }

  function addTo(total: EngineReport, report: EngineReport): void {
    total.created.push(...report.created);
    total.started.push(...report.started);
    total.locked.push(...report.locked);
    total.ended.push(...report.ended);
  }

  /** Operator action: start the rounds (the first one still open for bets, and the next). */
  async function genesis(): Promise<EngineReport> {
    return deps.db.transaction(async (tx) => {
      await lockRoundEngine(tx);
      if ((await lockOpenRounds(tx)).length > 0) throw new AppError('ROUNDS_ALREADY_STARTED');
      const report = emptyReport();
      await createRoundsAhead(tx, deps.clock.now().getTime(), report);
      await announce(tx, report);
      return report;
    });
  }

  /** Operator action: cancel and refund every open round; the engine stays stopped until genesis. */
  async function reset(): Promise<EngineReport> {
    return deps.db.transaction(async (tx) => {
      await lockRoundEngine(tx);
      const report = emptyReport();
      for (const round of await lockOpenRounds(tx)) await cancel(tx, round.epoch, 'reset', report);
      await announce(tx, report);
      return report;
    });
  }

  async function advance(
    tx: Tx,
    round: RoundRow,
    nowMs: number,
    state: Pass,
    report: EngineReport,
  ): Promise<void> {
    let status = round.status;
    let lockPrice = round.lockPrice;
    if (status === 'upcoming' && nowMs >= round.startTime.getTime()) {
      status = 'live';
      if (nowMs < round.lockTime.getTime()) {
        await markRoundLive(tx, round.epoch);
        report.started.push(round.epoch);
      }
    }
    const due =
      (status === 'live' && nowMs >= round.lockTime.getTime()) ||
      (status === 'locked' && nowMs >= round.closeTime.getTime());
    // A round waits for the feed: the later ones must not use prices (and feed round ids) past it.
    if (state.askFeed) {
      if (due) state.waiting += 1;
      return;
    }
    if (status === 'live' && nowMs >= round.lockTime.getTime()) {
      const reading = await priceAt(tx, round.lockTime, state);
      if (reading === 'ask_feed') {
        state.waiting += 1;
        return;
      }
      if (reading === 'unreachable') return cancel(tx, round.epoch, 'price_feed_unreachable', report);
      if (!reading) return cancel(tx, round.epoch, 'lock_price_missing', report);
      const changed = await lockRoundAt(tx, round.epoch, reading, deps.priceSource);
      if (changed === 0) return;
      report.locked.push(round.epoch);
      status = 'locked';
      lockPrice = reading.price;
    }
    if (status === 'locked' && nowMs >= round.closeTime.getTime() && lockPrice !== null) {
      const reading = await priceAt(tx, round.closeTime, state);
      if (reading === 'ask_feed') {
        state.waiting += 1;
        return;
      }
      if (reading === 'unreachable') return cancel(tx, round.epoch, 'price_feed_unreachable', report);
      if (!reading) return cancel(tx, round.epoch, 'close_price_missing', report);
      const result = roundResult(lockPrice, reading.price);
      const changed = await endRoundAt(tx, round.epoch, reading, result);
      if (changed === 0) return;
      await settle(tx, round.epoch, result);
      report.ended.push({ epoch: round.epoch, result });
    }
  }

  async function cancel(tx: Tx, epoch: number, reason: CancelReason, report: EngineReport): Promise<void> {
    const changed = await cancelRound(tx, epoch, reason);
    if (changed === 0) return;
    await settle(tx, epoch, 'cancelled');
    report.ended.push({ epoch, result: 'cancelled', reason });
    if (reason === 'price_feed_unreachable') {
      deps.logger?.error(
        { epoch, reason, feedWaitS: deps.recovery?.waitS },
        'oracle round cancelled: the price feed could not be asked for ORACLE_FEED_WAIT_S after its lock or close; every stake is refunded',
      );
    } else deps.logger?.warn({ epoch, reason }, 'oracle round cancelled; every stake is refunded');
  }

  async function settle(tx: Tx, epoch: number, result: StoredRoundResult): Promise<void> {
    await settleRoundPayouts(tx, { epoch, result, feeBps: deps.feeBps });
    await recordRoundSettlement(tx, epoch);
    // On chain after this transaction (the escrow-settlements job): never waited for here.
    if (deps.escrow) await queueRoundSettlement(tx, { epoch, result, escrow: deps.escrow });
  }

  /**
   * The price at `instant` (docs/architecture.md "Oracle rounds"): the stored sample at or just before
   * it, else the feed's own round there (asked between passes: 'ask_feed' until it has answered, or
   * 'unreachable' once it could not be asked for ORACLE_FEED_WAIT_S). Either must be positive,
   * updated within maxAgeS of the instant (core's isFreshFor), and — for feeds with round ids — not
   * from an older feed round than one already used (equal is fine: #56).
   */
  async function priceAt(
    tx: Tx,
    instant: Date,
    state: Pass,
  ): Promise<FeedReading | null | 'ask_feed' | 'unreachable'> {
    const sample = await priceSampleAt(tx, {
      source: deps.priceSource,
      instant,
      withinS: deps.maxAgeS,
    });
    let reading: FeedReading | null = null;
    if (
      sample &&
      sample.price > 0n &&
      isFreshFor(sample.updatedAt.getTime(), instant.getTime(), deps.maxAgeS * 1000)
    )
      reading = { price: sample.price, updatedAt: sample.updatedAt, roundId: sample.feedRoundId };
    else if (deps.recovery) {
      if (!state.recovered.has(instant.getTime())) {
        state.askFeed = instant;
        return 'ask_feed';
      }
      const answer = state.recovered.get(instant.getTime()) ?? null;
      if (answer === 'unreachable') return answer;
      reading = answer;
    }
    if (!reading) return null;
    if (reading.roundId !== null) {
      const roundId = BigInt(reading.roundId);
      if (state.lastRoundId !== null && roundId < state.lastRoundId) return null;
      state.lastRoundId = roundId;
    }
    return reading;
  }

  /**
   * The feed's round at an instant the samples missed: its reading, null when the feed has no fresh
   * round there (the round is cancelled), undefined when the feed could not be asked (retried).
   */
  async function askFeedAt(
    feed: Pick<PriceFeed, 'roundAt'>,
    instant: Date,
  ): Promise<FeedReading | null | undefined> {
    try {
      const answer = await feed.roundAt(instant, deps.maxAgeS);
      if (!answer.found) {
        deps.logger?.warn(
          { instant, reason: answer.reason },
          'the price feed has no fresh round at this instant',
        );
        return null;
      }
      const { price, updatedAt, roundId } = answer.reading;
      deps.logger?.info(
        { instant, usd: formatUsdPrice(price, 8), updatedAt, roundId },
        'a missed price was read from the feed',
      );
      return { price, updatedAt, roundId };
    } catch (error) {
      const nowMs = Date.now();
      if (nowMs - lastWarnedAt >= WARN_EVERY_MS) {
        lastWarnedAt = nowMs;
        deps.logger?.warn(
          { err: error, instant },
          'the price feed could not be asked for a missed price; retrying',
        );
      }
      return undefined;
    }
  }

  /**
   * Makes sure the round of the current interval (while it is still open for bets) and the next one
   * exist. Never creates a round whose lock has passed: it could take no bets and have no lock
   * price. Epochs a reset has just cancelled cannot be reused, so genesis right after a reset goes
   * on to the first unused epoch.
   */
  async function createRoundsAhead(tx: Tx, nowMs: number, report: EngineReport): Promise<void> {
    const nowS = nowMs / 1000;
    const current = epochAt(nowS, deps.timings);
    const targets =
      nowS < roundSchedule(current, deps.timings).lockTime ? [current, current + 1] : [current + 1];
    let openAhead = 0;
    for (const epoch of targets) {
      if ((await createRound(tx, epoch, nowS, report)) || (await isRoundOpen(tx, epoch))) openAhead += 1;
    }
    for (let epoch = current + 2; openAhead === 0 && epoch < current + 8; epoch++) {
      if ((await createRound(tx, epoch, nowS, report)) || (await isRoundOpen(tx, epoch))) openAhead += 1;
    }
  }

  async function createRound(tx: Tx, epoch: number, nowS: number, report: EngineReport): Promise<boolean> {
    const schedule = roundSchedule(epoch, deps.timings);
    const created = await insertRound(tx, {
      epoch,
      status: roundStatusAt(schedule, nowS),
      startTime: new Date(schedule.startTime * 1000),
      lockTime: new Date(schedule.lockTime * 1000),
      closeTime: new Date(schedule.closeTime * 1000),
    });
    if (created) report.created.push(epoch);
    return created;
  }

  async function announce(tx: Tx, report: EngineReport): Promise<void> {
    const epochs = new Set([
      ...report.created,
      ...report.started,
      ...report.locked,
      ...report.ended.map((ended) => ended.epoch),
    ]);
    for (const epoch of [...epochs].sort((a, b) => a - b)) await publish(tx, { topic: 'rounds', id: epoch });
  }

  const job: Job = {
    name: 'oracle-rounds',
    intervalMs: 1_000,
    async run() {
      const report = await tick();
      if (report.locked.length || report.ended.length) {
        deps.logger?.info(
          { locked: report.locked, ended: report.ended, created: report.created },
          'oracle rounds advanced',
        );
      }
    },
  };

  return { tick, genesis, reset, job };
}

export type RoundEngine = ReturnType<typeof createRoundEngine>;
