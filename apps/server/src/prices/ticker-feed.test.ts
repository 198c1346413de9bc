import { expect, test } from 'vitest';
import { tickerUrlFor } from './ticker-feed.ts';

test('a TICKER_URL template gets the coin’s USDT pair in place of {symbol}', () => {
  expect(tickerUrlFor('https://api.binance.com/api/v3/ticker/price?symbol={symbol}', 'BTC')).toBe(
    'https://api.binance.com/api/v3/ticker/price?symbol=BTCUSDT',
  );
});

test('the old BNBUSDT URL keeps working for BNB and serves the other coins through its symbol parameter', () => {
  const old = 'https://api.binance.com/api/v3/ticker/price?symbol=BNBUSDT';
  expect(tickerUrlFor(old, 'BNB')).toBe(old);
  expect(tickerUrlFor(old, 'DOGE')).toBe('https://api.binance.com/api/v3/ticker/price?symbol=DOGEUSDT');
  expect(tickerUrlFor('http://127.0.0.1:9/ticker', 'ETH')).toBe('http://127.0.0.1:9/ticker?symbol=ETHUSDT');
});
