import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { priceMarketFeedWaitMs } from './feed-wait.ts';

describe('priceMarketFeedWaitMs', () => {
  test('ORACLE_FEED_WAIT_S, in milliseconds, when it is the shorter (the defaults: 30 min against 3 days)', () => {
    expect(priceMarketFeedWaitMs(1800, 259_200)).toBe(1_800_000);
  });

  test('never longer than MARKET_RESOLUTION_TIMEOUT_S, which bounds every market', () => {
    expect(priceMarketFeedWaitMs(86_400, 3600)).toBe(3_600_000);
    expect(priceMarketFeedWaitMs(3600, 3600)).toBe(3_600_000);
  });

  test('for every setting in range: the smaller of the two, in whole milliseconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 86_400 }),
        fc.integer({ min: 3600, max: 7_776_000 }),
        (wait, timeout) => {
          const ms = priceMarketFeedWaitMs(wait, timeout);
          expect(ms).toBe(Math.min(wait, timeout) * 1000);
          expect(ms).toBeLessThanOrEqual(timeout * 1000);
          expect(ms).toBeLessThanOrEqual(wait * 1000);
        },
      ),
    );
  });
});
