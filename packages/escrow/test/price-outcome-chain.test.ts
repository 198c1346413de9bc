import type { FeedRound } from '@pm/core/feed-rounds';
import { decidePriceOutcome, type PriceOutcomeInput } from '@pm/core/price-outcome';
import fc from 'fast-check';
import { type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { priceSettlementCall } from '../src/price-settlement-call.ts';
import {
  BETTORS,
  BNB,
  BTC,
  createMarketEscrowWorld,
  MAX_PRICE_AGE,
  type MarketEscrowWorld,
  MINUTE,
  NO,
  type PublishedRound,
  STRANGER,
  YES,
} from './market-escrow-world.ts';

// Core's outcome rule (@pm/core/price-outcome) against MarketEscrow itself on a real node: random
// prices published to the dev feeds (equal, off by one, zero, negative), random ages before the lock and
// the close (stale beyond MAX_PRICE_AGE, the limit itself fresh), random bettors' sides (a side nobody
// took included); each market settled by anyone with the ids `priceSettlementCall` finds. The outcome
// the contract records is the one core decides over the same rounds.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

const BASE = 600_00000000n;
const MAX_AGE_MS = MAX_PRICE_AGE * 1000;

/** A lock price near BASE, now and then none at all (zero, negative). */
const price = fc.oneof(
  { arbitrary: fc.bigInt({ min: BASE - 2n, max: BASE + 2n }), weight: 8 },
  { arbitrary: fc.constantFrom(0n, -1n), weight: 1 },
);
/** A close relative to an earlier price: equal, one off, now and then zero and below. */
const closeOf = (previous: bigint) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(previous, previous + 1n, previous - 1n), weight: 8 },
    { arbitrary: fc.constantFrom(0n, -3n), weight: 1 },
  );
/** How long before its instant a price was published: fresh mostly, the limit itself, just stale, long stale. */
const ageS = fc.oneof(
  { arbitrary: fc.constantFrom(0, 1, MAX_PRICE_AGE - 1, MAX_PRICE_AGE), weight: 6 },
  { arbitrary: fc.integer({ min: 0, max: 2 * MAX_PRICE_AGE }), weight: 1 },
  { arbitrary: fc.constant(MAX_PRICE_AGE + 1), weight: 1 },
);
/** One to three bettors' sides: all on one side sometimes, so the other has no winner. */
const sides = fc.array(fc.constantFrom(YES, NO), { minLength: 1, maxLength: 3 });

const asFeedRound = (round: PublishedRound): FeedRound => ({
  roundId: round.roundId,
  answer: round.answer,
  updatedAtMs: round.updatedAt * 1000,
});

/** What each side holds after these bets: bettor i stakes (i + 1) × 0.01 BNB. */
function totals(bets: readonly number[]) {
  const stake = (index: number) => parseEther('0.01') * BigInt(index + 1);
  return {
    yes: bets.reduce((sum, side, index) => (side === YES ? sum + stake(index) : sum), 0n),
    no: bets.reduce((sum, side, index) => (side === NO ? sum + stake(index) : sum), 0n),
    stake,
  };
}

/** Settles `market` with the call `priceSettlementCall` builds, and answers the outcome recorded. */
async function settle(market: Hex, expectedArgs: readonly bigint[]): Promise<number> {
  const call = await priceSettlementCall(world.publicClient, world.address, market);
  if (!('functionName' in call)) throw new Error(`no settlement call: ${call.wait}`);
  expect(call.args.slice(1)).toEqual(expectedArgs);
  const stranger = world.as(STRANGER).write;
  await world.mined(
    call.functionName === 'settleRound'
      ? stranger.settleRound(call.args)
      : stranger.settlePriceMarket(call.args),
  );
  return (await world.market(market)).outcome;
}

test('a round settled on chain records the outcome core decides over its lock and close rounds', async () => {
  const scenario = price.chain((lock) =>
    fc.record({ lock: fc.constant(lock), close: closeOf(lock), lockAge: ageS, closeAge: ageS, bets: sides }),
  );
  await fc.assert(
    fc.asyncProperty(scenario, async ({ lock, close, lockAge, closeAge, bets }) => {
      // The lock 10 minutes on: bets first, then a price up to twice the age limit before it.
      const round = await world.nextRound(BNB, 10 * MINUTE, 5 * MINUTE);
      const sided = totals(bets);
      for (const [index, side] of bets.entries()) {
        await world.betRound(BETTORS[index] ?? STRANGER, round, side, sided.stake(index));
      }
      const lockRound = await world.publish(BNB, lock, round.lockAt - lockAge);
      const closeRound = await world.publish(BNB, close, round.closeAt - closeAge);
      await world.travelTo(round.closeAt + 1);

      const recorded = await settle(round.key, [lockRound.roundId, closeRound.roundId]);
      const input: PriceOutcomeInput = {
        kind: 'round',
        maxAgeMs: MAX_AGE_MS,
        sides: { yes: sided.yes, no: sided.no },
        lock: { round: asFeedRound(lockRound), instant: round.lockAt },
        close: { round: asFeedRound(closeRound), instant: round.closeAt },
      };
      expect(recorded).toBe(decidePriceOutcome(input));
    }),
    { numRuns: 12 },
  );
});

test('a price market settled on chain records the outcome core decides over its deadline round', async () => {
  const scenario = fc.record({
    close: closeOf(BASE),
    above: fc.boolean(),
    age: ageS,
    bets: sides,
  });
  await fc.assert(
    fc.asyncProperty(scenario, async ({ close, above, age, bets }) => {
      const [first = YES, ...others] = bets;
      const sided = totals(bets);
      const market = await world.createPriceMarket(BETTORS[0], {
        coin: BTC,
        target: BASE,
        above,
        closesIn: 10 * MINUTE,
        side: first,
        amount: sided.stake(0),
      });
      for (const [index, side] of others.entries()) {
        await world.bet(BETTORS[index + 1] ?? STRANGER, market.key, side, sided.stake(index + 1));
      }
      const closeRound = await world.publish(BTC, close, market.closesAt - age);
      await world.travelTo(market.closesAt + 1);

      const recorded = await settle(market.key, [closeRound.roundId]);
      const input: PriceOutcomeInput = {
        kind: 'priceMarket',
        maxAgeMs: MAX_AGE_MS,
        sides: { yes: sided.yes, no: sided.no },
        target: BASE,
        above,
        close: { round: asFeedRound(closeRound), instant: market.closesAt },
      };
      expect(recorded).toBe(decidePriceOutcome(input));
    }),
    { numRuns: 12 },
  );
});
