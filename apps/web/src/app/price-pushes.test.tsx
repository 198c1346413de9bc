import { createServer, type Server } from 'node:http';
import type { Market } from '@pm/core/contract/markets';
import type { RealtimeMessage } from '@pm/core/contract/realtime';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { type WebSocket, WebSocket as WebSocketClient, WebSocketServer } from 'ws';
import { MarketDetail } from '#features/markets/components/market-detail.tsx';
import { PriceCard } from '#features/oracle/components/price-card.tsx';
import { useOracleRealtime } from '#features/oracle/hooks/use-oracle-realtime.ts';
import { MARKET_PARTS } from '#routes/parts/market-parts.tsx';
import { testMarket } from '#testing/market-test-kit.tsx';
import { OffScreenObserver, testPriceMarket } from '#testing/price-market-kit.ts';
import { renderWithApp } from '#testing/test-app.tsx';

// Every coin's price is pushed on the one realtime socket. A price market's chart ends on
// its own coin (the live price while open, the settlement reading once settled), and BNB's price
// card shows BNB's, whatever other coins are pushed. A real HTTP and WebSocket server on loopback
// stands in for the API; the page's location is moved onto it, so the socket connects to it.

let market: Market = testMarket();
let server: Server;
let sockets: WebSocketServer;
let connected: Promise<WebSocket>;

const HISTORY = [
  { usd: '99000.00', at: '2099-06-01T12:00:00.000Z' },
  { usd: '100500.00', at: '2099-06-01T12:30:00.000Z' },
  // Sampled after the settlement reading's feed time: not part of the settled market's line.
  { usd: '97000.00', at: '2099-06-02T12:05:00.000Z' },
];

function answer(url: string): unknown {
  const price = /^\/api\/prices\/(BNB|BTC|ETH|SOL)$/.exec(url)?.[1];
  if (price)
    return {
      symbol: price,
      usd: price === 'BNB' ? '600.00' : '102000.00',
      source: 'simulated',
      updatedAt: '2099-06-02T12:10:00.000Z',
      stale: false,
    };
  if (url.startsWith('/api/prices/BTC/history')) return { symbol: 'BTC', points: HISTORY };
  if (url.startsWith('/api/prices/BNB/history')) return { symbol: 'BNB', points: [] };
  if (/^\/api\/markets\/\d+\/odds/.test(url)) return { marketId: market.id, points: [] };
  if (url.startsWith('/api/markets/'))
    return { market, bets: [], betsNextCursor: null, participants: 0, timeline: [] };
  return {
    markets: { totalWei: '0', count: 0, bets: [] },
    oracle: { totalWei: '0', count: 0, bets: [] },
    bonds: { totalWei: '0', count: 0, bonds: [] },
  };
}

beforeAll(async () => {
  vi.stubGlobal('IntersectionObserver', OffScreenObserver);
  // A real WebSocket client (ws's): jsdom's (undici's) fires its open event with an Event class of
  // the other realm under vitest, and throws.
  vi.stubGlobal('WebSocket', WebSocketClient);
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer(request.url ?? '')));
  });
  sockets = new WebSocketServer({ server, path: '/api/realtime' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no port');
  locate(`http://127.0.0.1:${address.port}/`);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  locate('http://localhost:3000/');
  sockets.close();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(cleanup);

/** The vitest environment's jsdom instance. */
function jsdom(): { reconfigure: (settings: { url: string }) => void } {
  const dom: unknown = Reflect.get(globalThis, 'jsdom');
  if (
    typeof dom !== 'object' ||
    dom === null ||
    !('reconfigure' in dom) ||
    typeof dom.reconfigure !== 'function'
  )
    throw new Error('No jsdom instance');
  const { reconfigure } = dom;
  return { reconfigure: (settings) => reconfigure.call(dom, settings) };
}

/** Moves the page (window.location, so the realtime socket's URL too) onto `url`. */
function locate(url: string) {
  jsdom().reconfigure({ url });
}

function push(symbol: 'BNB' | 'BTC' | 'ETH' | 'SOL', usd: string, socket: WebSocket) {
  const message: RealtimeMessage = {
    topic: 'prices',
    sample: {
      symbol,
      usd,
      source: 'simulated',
      updatedAt: '2099-06-02T12:20:00.000Z',
      sampledAt: '2099-06-02T12:20:01.000Z',
    },
  };
  socket.send(JSON.stringify(message));
}

const WAIT = { timeout: 4_000 };

function OraclePriceCard() {
  useOracleRealtime();
  return <PriceCard currentRound={null} />;
}

async function renderPage() {
  connected = new Promise((resolve) => sockets.once('connection', resolve));
  await renderWithApp(
    <>
      <MarketDetail marketId="1" parts={MARKET_PARTS} />
      <OraclePriceCard />
    </>,
  );
  const socket = await connected;
  const chart = await screen.findByTestId('market-price-chart', {}, WAIT);
  const bnb = () => screen.getByTestId('bnb-price').textContent;
  await waitFor(() => expect(bnb()).toBe('$600.00'), WAIT);
  return { socket, chartLabel: () => chart.getAttribute('aria-label'), bnb };
}

describe("A price market's chart under other coins' pushes", () => {
  test('An open BTC market ends at BTC’s live price; BNB’s, ETH’s and SOL’s prices change neither it nor BNB’s card the wrong way', async () => {
    market = testPriceMarket();
    const page = await renderPage();
    await waitFor(() => expect(page.chartLabel()).toContain('now $102,000.0000'), WAIT);

    push('BNB', '650.00', page.socket);
    await waitFor(() => expect(page.bnb()).toBe('$650.00'), WAIT);
    expect(page.chartLabel()).toContain('now $102,000.0000');

    push('ETH', '3000.00', page.socket);
    push('SOL', '150.00', page.socket);
    push('BTC', '103000.00', page.socket);
    await waitFor(() => expect(page.chartLabel()).toContain('now $103,000.0000'), WAIT);
    expect(page.bnb()).toBe('$650.00');
  });

  test('A settled BTC market ends at its settlement reading, whatever BNB, ETH or BTC do next', async () => {
    market = testPriceMarket({
      status: 'settled',
      result: 'YES',
      settlementPrice: '100700.12345678',
      settlementUpdatedAt: '2099-06-02T12:00:10.000Z',
      updatedAt: '2099-06-02T12:01:00.000Z',
    });
    const page = await renderPage();
    const settled = 'settled at $100,700.1234';
    await waitFor(() => expect(page.chartLabel()).toContain(settled), WAIT);

    push('ETH', '3000.00', page.socket);
    push('BTC', '90000.00', page.socket);
    push('BNB', '650.00', page.socket);
    await waitFor(() => expect(page.bnb()).toBe('$650.00'), WAIT);
    expect(page.chartLabel()).toContain(settled);
  });
});
