import { describe, expect, test } from 'vitest';
import { createManualClock, systemClock } from '../chain/clock.ts';
import { createSimulatedFeed } from './simulated-feed.ts';

const walk = async (feed: ReturnType<typeof createSimulatedFeed>, steps: number) => {
  const prices: bigint[] = [];
  for (let i = 0; i < steps; i++) prices.push((await feed.read()).price);
  return prices;
};

describe('the simulated price feed', () => {
  test('two feeds started without a seed walk differently, so the walk cannot be replayed', async () => {
    const first = await walk(createSimulatedFeed({ clock: systemClock }), 300);
    const second = await walk(createSimulatedFeed({ clock: systemClock }), 300);
    expect(first).not.toEqual(second);
  });

  test('a given seed gives the same walk, for tests that need one', async () => {
    const first = await walk(createSimulatedFeed({ clock: systemClock, seed: 7 }), 50);
    const second = await walk(createSimulatedFeed({ clock: systemClock, seed: 7 }), 50);
    expect(first).toEqual(second);
  });
});

describe('the simulated feed at a past instant', () => {
  test('answers from the readings it gave, by the rule an aggregator’s rounds follow', async () => {
    const clock = createManualClock(new Date('2025-06-01T12:00:00Z'));
    const feed = createSimulatedFeed({ clock, seed: 1 });
    const instant = new Date('2025-06-01T12:05:00Z');
    expect(await feed.roundAt(instant, 120)).toEqual({ found: false, reason: 'no reading yet' });
    for (const [time, usd] of [
      ['12:03:30', 601n],
      ['12:04:40', 602n],
      ['12:05:00', 603n],
      ['12:05:02', 604n],
    ] as const) {
      clock.set(new Date(`2025-06-01T${time}Z`));
      feed.setPrice(usd * 100_000_000n);
      await feed.read();
    }
    expect(await feed.roundAt(instant, 120)).toEqual({
      found: true,
      reading: { price: 603_00000000n, updatedAt: instant, roundId: null, source: 'simulated', stale: false },
    });
    expect(await feed.roundAt(new Date('2025-06-01T12:04:59Z'), 120)).toMatchObject({
      reading: { price: 602_00000000n },
    });
    // Its reading before 12:04:40 is from 12:03:30: 70 s old, older than a 60 s limit.
    expect(await feed.roundAt(new Date('2025-06-01T12:04:39Z'), 60)).toEqual({
      found: false,
      reason: 'stale',
    });
    expect(await feed.roundAt(new Date('2025-06-01T12:03:00Z'), 120)).toEqual({
      found: false,
      reason: 'before_history',
    });
  });
});
