import type { Browser, Page } from '@playwright/test';
import { parseEther } from 'viem';
import {
  createMarketViaApi,
  devAddress,
  eventually,
  joinMarketViaApi,
  placeOracleBetViaApi,
} from '../support/api.ts';
import { freshAccount } from '../support/chain.ts';
import { baseUrl, expect, test } from '../support/fixtures.ts';
import { getRounds, waitForLiveRound } from '../support/helpers.ts';

// Push, not poll (decision 015): an idle page is kept fresh by the realtime socket and
// asks the server only when an event says something it shows changed. The stack's rounds are short
// (60 s, betting 30 s), so in a minute the oracle page sees the rounds move on by themselves.

const IDLE_MINUTE_MS = 60_000;
const MAX_REQUESTS_PER_MINUTE = 6;

/** Every HTTP request the page makes (the WebSocket is not one), with the path asked for. */
function countRequests(page: Page) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('ws')) return;
    seen.push(new URL(request.url()).pathname);
  });
  return {
    since: (mark: number) => seen.slice(mark),
    get mark() {
      return seen.length;
    },
  };
}

async function openPage(browser: Browser, path: string) {
  // Its own context: its own window, in front, so timers are not throttled as a background tab's.
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  const requests = countRequests(page);
  await page.goto(path);
  return { page, requests };
}

test('Idle oracle, markets and market pages ask at most 6 times a minute, and still show new rounds and bets made elsewhere', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const market = await createMarketViaApi({
    from: devAddress(6),
    description: 'Will the push e2e see this market change without a reload?',
    prediction: 'YES',
    amountWei: parseEther('0.037'),
  });
  const live = await waitForLiveRound(20);

  const oracle = await openPage(browser, '/oracle-predictions');
  const board = await openPage(browser, '/predictions');
  const detail = await openPage(browser, `/market/${market.market.id}`);
  await expect(oracle.page.getByRole('region', { name: `LIVE Round #${live.epoch}` })).toBeVisible();
  await expect(board.page.getByText(market.market.title)).toBeVisible();
  await expect(detail.page.getByRole('heading', { level: 1 })).toBeVisible();
  // Let the first loads and the resync of the freshly opened sockets finish.
  await oracle.page.waitForTimeout(3_000);
  const marks = { oracle: oracle.requests.mark, board: board.requests.mark, detail: detail.requests.mark };
  const startedAt = Date.now();

  // Someone else bets on the live round and joins the market, through the API.
  await placeOracleBetViaApi({
    epoch: live.epoch,
    from: devAddress(7),
    position: 'bear',
    amountWei: parseEther('0.029'),
  });
  await joinMarketViaApi({
    marketId: market.market.id,
    from: devAddress(8),
    prediction: 'NO',
    amountWei: parseEther('0.041'),
  });
  await expect(oracle.page.getByRole('region', { name: `LIVE Round #${live.epoch}` })).toContainText('0.029');
  await expect(detail.page.getByText('0.078', { exact: false }).first()).toBeVisible();
  await expect(board.page.getByRole('article').filter({ hasText: market.market.title })).toContainText(
    '0.078',
  );

  // The round the page showed live concludes within the minute: the page says so by itself.
  const concluded = oracle.page.getByRole('dialog', { name: `Round #${live.epoch} concluded` });
  await expect(concluded).toBeVisible({ timeout: IDLE_MINUTE_MS });
  await oracle.page.waitForTimeout(IDLE_MINUTE_MS - (Date.now() - startedAt));
  const asked = {
    oracle: oracle.requests.since(marks.oracle),
    board: board.requests.since(marks.board),
    detail: detail.requests.since(marks.detail),
  };

  // And it shows the newer live round (the dialog, while open, hides the page from the a11y tree).
  const now = await getRounds();
  expect(now.current?.epoch ?? 0).toBeGreaterThan(live.epoch);
  await concluded.getByRole('button', { name: 'Got it' }).click();
  await expect(oracle.page.getByRole('region', { name: `LIVE Round #${now.current?.epoch}` })).toBeVisible();

  console.log(`requests in the idle minute: ${JSON.stringify(asked)}`);
  expect(asked.oracle.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_MINUTE);
  expect(asked.board.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_MINUTE);
  expect(asked.detail.length).toBeLessThanOrEqual(MAX_REQUESTS_PER_MINUTE);

  for (const { page } of [oracle, board, detail]) await page.context().close();
});

test('With the socket down the page falls back to polling; back up, it stops polling and catches up at once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const market = await createMarketViaApi({
    from: devAddress(9),
    description: 'Will the push e2e catch up after the socket came back?',
    prediction: 'YES',
    amountWei: parseEther('0.023'),
  });
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  // The socket passes through Playwright, which cuts it and refuses new ones while `down`, as a
  // failing proxy would.
  let down = false;
  let connections = 0;
  const open = new Set<{ close: () => Promise<void> }>();
  await page.routeWebSocket(/\/api\/realtime$/, (ws) => {
    if (down) {
      void ws.close({ code: 1013, reason: 'down for the test' });
      return;
    }
    ws.connectToServer();
    connections += 1;
    open.add(ws);
  });
  const cut = async () => {
    down = true;
    for (const ws of open) await ws.close();
    open.clear();
  };
  const requests = countRequests(page);
  const roundsAsked = (mark: number) =>
    requests.since(mark).filter((path) => path === '/api/oracle/rounds').length;

  await page.goto('/oracle-predictions');
  await expect(page.getByRole('heading', { level: 1, name: 'Oracle Predictions' })).toBeVisible();
  await page.waitForTimeout(3_000);
  const upMark = requests.mark;
  await page.waitForTimeout(5_000);
  expect(roundsAsked(upMark)).toBeLessThanOrEqual(1);

  // Down: the rounds are polled every second (docs/product.md §9), as before push.
  await cut();
  await page.waitForTimeout(1_000);
  const downMark = requests.mark;
  await page.waitForTimeout(5_000);
  expect(roundsAsked(downMark)).toBeGreaterThanOrEqual(3);

  // Up again: the page reconnects and polls no more.
  const before = connections;
  down = false;
  await eventually(async () => connections > before, 40_000);
  await page.waitForTimeout(2_000);
  const quietMark = requests.mark;
  await page.waitForTimeout(5_000);
  expect(roundsAsked(quietMark)).toBeLessThanOrEqual(1);

  // A market page opened while the socket is down, polled only every 30 s: a bet made meanwhile
  // shows as soon as the socket is back (the reconnect refetches), long before the next poll.
  await cut();
  await page.goto(`/market/${market.market.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await joinMarketViaApi({
    marketId: market.market.id,
    from: devAddress(10),
    prediction: 'NO',
    amountWei: parseEther('0.019'),
  });
  const reconnectFrom = connections;
  down = false;
  const upAt = Date.now();
  await expect(page.getByText('0.042', { exact: false }).first()).toBeVisible({ timeout: 20_000 });
  expect(connections).toBeGreaterThan(reconnectFrom);
  expect(Date.now() - upAt).toBeLessThan(20_000);
  await context.close();
});

test('A change announced while the page’s first read is on its way shows without a reload', async ({
  browser,
}) => {
  const market = await createMarketViaApi({
    from: await freshAccount(),
    description: 'Will the push e2e see a bet made while its first read was on its way?',
    prediction: 'YES',
    amountWei: parseEther('0.031'),
  });
  const id = market.market.id;
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  // The page's first read of the market is held, after the server has answered it, until the
  // bet's event has reached the page: as on a slow network, the event overtakes the answer (the
  // review-window spec's market page once showed a verdict's proposal this way: never).
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(new RegExp(`/api/markets/${id}$`), async (route) => {
    if (held) return route.continue();
    held = true;
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
  });
  let socketOpen = () => {};
  const listening = new Promise<void>((resolve) => {
    socketOpen = resolve;
  });
  let announce = () => {};
  const announced = new Promise<void>((resolve) => {
    announce = resolve;
  });
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => {
      // The stack pushes prices every few seconds: a first frame says the socket listens.
      socketOpen();
      if (String(frame.payload) === JSON.stringify({ topic: 'markets', id })) announce();
    });
  });
  await page.goto(`/market/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await eventually(async () => held, 15_000);
  await listening;
  await joinMarketViaApi({
    marketId: id,
    from: await freshAccount(),
    prediction: 'NO',
    amountWei: parseEther('0.017'),
  });
  await announced;
  // Its refetches are coalesced over 50 ms: let the page act on the event before the answer lands.
  await page.waitForTimeout(1_000);
  release();
  // The held answer is the old pool (0.031); the page asks again once it is in.
  await expect(page.getByText('0.048', { exact: false }).first()).toBeVisible();
  await context.close();
});
