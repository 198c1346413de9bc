import { parseUsdPrice } from '@pm/core/price';
import { z } from 'zod';
import type { Clock } from '../chain/clock.ts';
import { type PriceFeed, PriceFeedError, type PriceReading } from './price-feed.ts';
import { createReadingHistory } from './reading-history.ts';

// An exchange's public ticker (`GET …/api/v3/ticker/price?symbol=BNBUSDT` →
// `{"symbol":"BNBUSDT","price":"612.34000000"}`), read by the server only: one upstream call serves
// every client, and it works where the exchange is blocked for the browser (docs/architecture.md "Oracle rounds").

/**
 * The ticker URL of one coin: TICKER_URL's `{symbol}` becomes the coin's USDT pair
 * (BTCUSDT…); without one, the URL's `symbol` query parameter is set to it, so the old
 * `…?symbol=BNBUSDT` value keeps working for BNB and serves the other coins too.
 */
export function tickerUrlFor(template: string, symbol: string): string {
  const pair = `${symbol}USDT`;
  if (template.includes('{symbol}')) return template.replaceAll('{symbol}', pair);
  const url = new URL(template);
  url.searchParams.set('symbol', pair);
  return url.toString();
}

const TickerSchema = z.object({ symbol: z.string(), price: z.string() });

export function createTickerFeed(deps: {
  url: string;
  clock: Clock;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): PriceFeed {
  const timeoutMs = deps.timeoutMs ?? 2_000;
  const fetchImpl = deps.fetch ?? fetch;
  let lastGood: PriceReading | undefined;
  // The exchange keeps no history we read: a past instant is answered from our own fresh readings.
  const history = createReadingHistory();

  const readFresh = async (): Promise<PriceReading> => {
    let response: Response;
    try {
      response = await fetchImpl(deps.url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new PriceFeedError(
        timedOut ? 'TIMEOUT' : 'UNAVAILABLE',
        timedOut ? `The ticker did not answer within ${timeoutMs} ms` : 'The ticker could not be reached',
        { cause: error },
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new PriceFeedError('HTTP_ERROR', `The ticker answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new PriceFeedError('BAD_RESPONSE', 'The ticker answered something that is not JSON', {
        cause: error,
      });
    }
    const parsed = TickerSchema.safeParse(body);
    if (!parsed.success) throw new PriceFeedError('BAD_RESPONSE', 'The ticker answer has no price');
    let price: bigint;
    try {
      price = parseUsdPrice(parsed.data.price);
    } catch (error) {
      throw new PriceFeedError('BAD_RESPONSE', `The ticker price is not a number: ${parsed.data.price}`, {
        cause: error,
      });
    }
    if (price <= 0n) throw new PriceFeedError('NON_POSITIVE', `The ticker answered ${parsed.data.price}`);
    // The ticker carries no time of its own: the price is as of our request.
    return { price, updatedAt: deps.clock.now(), roundId: null, source: 'ticker', stale: false };
  };

  return {
    source: 'ticker',
    roundAt: history.roundAt,
    async read() {
      try {
        lastGood = await readFresh();
        history.record(lastGood);
        return lastGood;
      } catch (error) {
        // Fallback: the last good value, marked stale and keeping its own time, so it ages out
        // (ORACLE_MAX_AGE_S) and is never used for a lock or close price.
        if (lastGood) return { ...lastGood, stale: true };
        throw error;
      }
    },
  };
}
