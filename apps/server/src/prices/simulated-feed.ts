import { randomBytes } from 'node:crypto';
import type { Clock } from '../chain/clock.ts';
import type { PriceFeed, PriceReading } from './price-feed.ts';
import { createReadingHistory } from './reading-history.ts';

// The offline default feed (PRICE_FEED=simulated): a random walk, labelled "Simulated" in
// the UI, refused by the config off the local chain. Unless a test passes a seed, each start draws
// its seed from crypto randomness, so nobody can replay the walk from the published prices. Tests and
// the e2e suite set its next value (setPrice), through POST /api/dev/price on the local chain only.
// Its readings are its rounds: asked for a past instant (roundAt), it answers from the ones it gave,
// as an aggregator answers from its history.

const DEFAULT_START = 600_00000000n; // 600 USD × 1e8
/** The walk never goes below this share of its start (1/100), so DOGE at 0.35 USD has room to move. */
const MIN_PRICE_DIVISOR = 100n;

export type SimulatedFeed = PriceFeed & {
  /** The next reading answers exactly `price`; with `hold`, every reading does until the next call. */
  setPrice(price: bigint, options?: { hold?: boolean }): void;
  /** Continues the walk from `price` (the last stored sample), unless it has already begun. */
  resumeFrom(price: bigint): void;
};

export function createSimulatedFeed(deps: { clock: Clock; seed?: number; start?: bigint }): SimulatedFeed {
  const random = mulberry32(deps.seed ?? randomBytes(4).readUInt32BE(0));
  let price = deps.start ?? DEFAULT_START;
  const minPrice = price / MIN_PRICE_DIVISOR > 0n ? price / MIN_PRICE_DIVISOR : 1n;
  let next: bigint | undefined;
  let held = false;
  let readings = 0;
  const history = createReadingHistory();

  return {
    source: 'simulated',
    roundAt: history.roundAt,
    setPrice(value, options = {}) {
      if (value <= 0n) throw new RangeError('a price must be positive');
      next = value;
      held = options.hold ?? false;
    },
    resumeFrom(value) {
      if (readings === 0 && next === undefined && value > 0n) price = value;
    },
    async read(): Promise<PriceReading> {
      if (next !== undefined) {
        price = next;
        if (!held) next = undefined;
      } else {
        // A step of up to ±0.05 % (±5000 parts in 10^7): the feel of a calm few seconds of a coin's USD price.
        const step = BigInt(Math.round((random() * 2 - 1) * 5000));
        price += (price * step) / 10_000_000n;
        if (price < minPrice) price = minPrice;
      }
      readings += 1;
      const reading: PriceReading = {
        price,
        updatedAt: deps.clock.now(),
        roundId: null,
        source: 'simulated',
        stale: false,
      };
      history.record(reading);
      return reading;
    },
  };
}

/** A small, fast, seedable PRNG (Tommy Ettinger's mulberry32): the same seed gives the same walk. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
