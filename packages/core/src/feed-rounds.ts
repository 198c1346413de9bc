// Which round of a price feed decides an instant (docs/architecture.md "Oracle rounds"; docs/security.md
// "Prices"). A round's lock or close price is the feed's answer at that instant: the last round the feed
// updated at or before it, counted only if it is fresh for the instant (updated at most
// ORACLE_MAX_AGE_S before it) and positive. The server samples the feed every 2 s and normally finds
// that answer in its samples; when it missed the instant (its reads starved), it asks the feed's own
// round history through `findCoveringRound`, and cancels the round only when the feed has no such round.

/** One round of a feed: Chainlink's `getRoundData`, or a dev feed's own reading. Times in ms. */
export type FeedRound = { roundId: bigint; answer: bigint; updatedAtMs: number };

export type CoveringRoundMiss =
  /** The round covering the instant was updated more than the staleness limit before it. */
  | 'stale'
  /** The round covering the instant answered zero or less. */
  | 'not_positive'
  /** Every round the feed still holds (in the latest round's phase) was updated after the instant. */
  | 'before_history'
  /** The search read `maxReads` rounds without an answer (only a history full of holes does that). */
  | 'read_limit';

export type CoveringRound = { found: true; round: FeedRound } | { found: false; reason: CoveringRoundMiss };

/**
 * The staleness rule of every lock and close price, sampled or recovered: the feed updated its price
 * at most `maxAgeMs` before the instant.
 */
export function isFreshFor(updatedAtMs: number, instantMs: number, maxAgeMs: number): boolean {
  return updatedAtMs >= instantMs - maxAgeMs;
}

/** Chainlink's proxies keep the phase (which aggregator answered) in the bits above 64 of a round id. */
export const PHASE_OFFSET = 64n;

/** The first round id of `roundId`'s phase: an aggregator numbers its rounds from 1. */
export function firstRoundOfPhase(roundId: bigint): bigint {
  return ((roundId >> PHASE_OFFSET) << PHASE_OFFSET) | 1n;
}

/**
 * Reads enough for any phase: the search gallops back from the latest round (1, 2, 4, … rounds) and
 * then bisects, so 2 × 32 reads reach 4 billion rounds back. Holes in the history cost a read each.
 */
export const MAX_ROUND_READS = 64;

/** The verdict on the round that covers the instant: usable, or why not. */
export function judgeCoveringRound(round: FeedRound, instantMs: number, maxAgeMs: number): CoveringRound {
  if (round.answer <= 0n) return { found: false, reason: 'not_positive' };
  if (!isFreshFor(round.updatedAtMs, instantMs, maxAgeMs)) return { found: false, reason: 'stale' };
  return { found: true, round };
}

/**
 * Finds the round covering `instantMs` (the last one updated at or before it) in a feed's history and
 * judges it (`judgeCoveringRound`). `readRound` answers a round id with its round, null when the
 * feed holds no data for that id (a revert, or `updatedAt` 0 as OCR aggregators answer), and throws
 * when the feed could not be asked: that error is the caller's to retry, never a "no round".
 *
 * Round ids are read only within the latest round's phase (from `firstRoundId`, by default the
 * phase's first round): at a phase boundary the search stops, as the AggregatorV3 interface does not
 * say where the previous phase ended. Updates within a phase are in order of round id, so the search
 * gallops back from the latest round and then bisects; an id without data is a hole, skipped one read
 * at a time. At most `maxReads` rounds are read: the search always ends.
 */
export async function findCoveringRound(input: RoundSearch & { maxAgeMs: number }): Promise<CoveringRound> {
  const inForce = await findRoundInForce(input);
  return inForce.found ? judgeCoveringRound(inForce.round, input.instantMs, input.maxAgeMs) : inForce;
}

export type RoundSearch = {
  latest: FeedRound;
  instantMs: number;
  readRound: (roundId: bigint) => Promise<FeedRound | null>;
  firstRoundId?: bigint;
  maxReads?: number;
};

/** The round in force at an instant, whatever its price and age, or why the search found none. */
export type RoundInForce =
  | { found: true; round: FeedRound }
  | { found: false; reason: Extract<CoveringRoundMiss, 'before_history' | 'read_limit'> };

/**
 * The search of `findCoveringRound` without the judgement: the last round updated at or before
 * `instantMs`, stale or not. What a settlement of a price kind names on chain, where the contract
 * proves the id and judges the price itself (docs/decisions/029, 031): a stale or non-positive round
 * in force is an outcome there (every stake refunded), not a miss.
 */
export async function findRoundInForce(input: RoundSearch): Promise<RoundInForce> {
  const { latest, instantMs } = input;
  const covers = (round: FeedRound) => round.updatedAtMs <= instantMs;
  if (covers(latest)) return { found: true, round: latest };

  const first = input.firstRoundId ?? firstRoundOfPhase(latest.roundId);
  const maxReads = input.maxReads ?? MAX_ROUND_READS;
  let reads = 0;
  const outOfReads = () => reads >= maxReads;
  const read = async (roundId: bigint): Promise<FeedRound | null> => {
    reads += 1;
    const round = await input.readRound(roundId);
    return round && round.updatedAtMs > 0 ? round : null;
  };
  /** The round with data nearest at or below `roundId`, down to `first`; undefined when out of reads. */
  const nearestBelow = async (roundId: bigint): Promise<FeedRound | null | undefined> => {
    for (let id = roundId; id >= first; id--) {
      if (outOfReads()) return undefined;
      const round = await read(id);
      if (round) return { ...round, roundId: id };
    }
    return null;
  };
  /** The round with data nearest at or above `roundId`, below `end`; undefined when out of reads. */
  const nearestAbove = async (roundId: bigint, end: bigint): Promise<FeedRound | null | undefined> => {
    for (let id = roundId; id < end; id++) {
      if (outOfReads()) return undefined;
      const round = await read(id);
      if (round) return { ...round, roundId: id };
    }
    return null;
  };

  // Every round with data at or above `after` was updated after the instant.
  let after = latest.roundId;
  let covering: FeedRound | undefined;
  let step = 1n;
  while (!covering) {
    if (after <= first) return { found: false, reason: 'before_history' };
    const probe = after - step > first ? after - step : first;
    const round = await nearestBelow(probe);
    if (round === undefined) return { found: false, reason: 'read_limit' };
    if (round === null) {
      // No data at or below the probe (holes down to the phase's first round): the covering round, if
      // any, is the first with data above the probe and below `after`.
      const above = await nearestAbove(probe + 1n, after);
      if (above === undefined) return { found: false, reason: 'read_limit' };
      if (above === null || !covers(above)) return { found: false, reason: 'before_history' };
      covering = above;
    } else if (covers(round)) covering = round;
    else {
      after = round.roundId;
      step *= 2n;
    }
  }
  // The answer lies in [covering, after): bisect, a hole counting as "after the instant".
  while (after - covering.roundId > 1n) {
    const middle = (covering.roundId + after) / 2n;
    const round = await nearestAbove(middle, after);
    if (round === undefined) return { found: false, reason: 'read_limit' };
    if (round && covers(round)) covering = round;
    else after = middle;
  }
  return { found: true, round: covering };
}
