import { describe, expect, test } from 'vitest';
import { systemClock } from '../chain/clock.ts';
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
