import type { Market } from '@pm/core/contract/markets';
import { testMarket } from './market-test-kit.tsx';

// For the price market tests: a BTC price market, and charts kept off screen.

/** A BTC "above $100,000.00" price market, open, on the simulated feed; overrides change it. */
export function testPriceMarket(overrides: Partial<Market> = {}): Market {
  return testMarket({
    title: 'Will BTC be above $100,000.00 at 12:00 UTC on 2099-06-02?',
    betType: 'price_prediction',
    targetSymbol: 'BTC',
    targetPrice: '100000.00',
    startPrice: '99000.00',
    comparisonType: 'above',
    priceFeed: 'simulated',
    resolver: { model: 'price-feed', promptVersion: 'price-rule-1', contentHash: `0x${'ab'.repeat(32)}` },
    ...overrides,
  });
}

/**
 * An IntersectionObserver that never sees anything (`vi.stubGlobal('IntersectionObserver', …)`):
 * jsdom draws no canvas, so a chart stays off screen and its library is never loaded; its figure,
 * named by the line's last point, is what a test reads.
 */
export class OffScreenObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
