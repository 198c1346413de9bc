import { type FeedRound, findCoveringRound } from '@pm/core/feed-rounds';
import type { PriceAtInstant, PriceReading } from './price-feed.ts';

/** About half an hour of one reading every 2 s: the round engine asks within seconds of an instant. */
const KEEP_READINGS = 1024;

/**
 * The readings a feed without a round history of its own has given (the simulated walk, the exchange
 * ticker), numbered as rounds in the order given, so it answers `roundAt` by the same rule and search
 * as a Chainlink aggregator (@pm/core/feed-rounds): a reading it gave that its sample did not store
 * (a failed write, a starved sampler) still decides the instant. Kept in memory, so a restart forgets
 * them, as it forgets the walk.
 */
export function createReadingHistory(keep = KEEP_READINGS) {
  const readings: PriceReading[] = [];
  /** The round number of readings[0]. */
  let first = 1n;

  const roundOf = (index: number): FeedRound | null => {
    const reading = readings[index];
    if (!reading) return null;
    return {
      roundId: first + BigInt(index),
      answer: reading.price,
      updatedAtMs: reading.updatedAt.getTime(),
    };
  };

  return {
    record(reading: PriceReading): void {
      readings.push(reading);
      if (readings.length > keep) {
        readings.shift();
        first += 1n;
      }
    },

    async roundAt(instant: Date, maxAgeS: number): Promise<PriceAtInstant> {
      const latest = roundOf(readings.length - 1);
      if (!latest) return { found: false, reason: 'no reading yet' };
      const result = await findCoveringRound({
        latest,
        instantMs: instant.getTime(),
        maxAgeMs: maxAgeS * 1000,
        firstRoundId: first,
        readRound: async (roundId) => roundOf(Number(roundId - first)),
      });
      if (!result.found) return { found: false, reason: result.reason };
      const reading = readings[Number(result.round.roundId - first)];
      if (!reading) return { found: false, reason: 'before_history' };
      return { found: true, reading: { ...reading, stale: false } };
    },
  };
}
