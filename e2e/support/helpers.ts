import type { Browser, Page } from '@playwright/test';
import type { PriceSymbol } from '@pm/core/constants';
import { RoundsResponseSchema } from '@pm/core/contract/oracle';
import { createMarketViaApi, eventually, getMarket, joinMarketViaApi } from './api.ts';
import { advanceChainTime } from './chain.ts';
import { baseUrl, expect, rpcUrl } from './fixtures.ts';
import { installTestWallet } from './test-wallet.ts';

// The set-ups the e2e specs share: a page with a connected wallet, a market with a stake on each
// side, settling markets, the oracle's rounds and the dev price. One home, so a change to the app
// (a button's name, the dev price route) is made once.

/** Clicks Connect Wallet and waits until the top bar shows the connected wallet. */
export async function connectWallet(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Connect Wallet' }).click();
  await expect(page.getByRole('button', { name: /^Wallet 0x/ })).toBeVisible();
}

/** A new window (its own context, in front, timers not throttled) at `path` with `account` connected. */
export async function openWithWallet(browser: Browser, account: `0x${string}`, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const page = await context.newPage();
  await installTestWallet(page, { account, rpcUrl: rpcUrl() });
  await page.goto(path);
  await connectWallet(page);
  return page;
}

/** An hourly crypto market with a stake on each side: `yes` creates it on YES, `no` joins on NO. */
export async function createContestedMarket(input: {
  description: string;
  yes: { from: `0x${string}`; amountWei: bigint };
  no: { from: `0x${string}`; amountWei: bigint };
}) {
  const { market } = await createMarketViaApi({
    from: input.yes.from,
    description: input.description,
    prediction: 'YES',
    amountWei: input.yes.amountWei,
  });
  await joinMarketViaApi({
    marketId: market.id,
    from: input.no.from,
    prediction: 'NO',
    amountWei: input.no.amountWei,
  });
  return market;
}

/**
 * Moves chain time past an hourly deadline and waits until every market is settled by the stub
 * judge (set its verdict first with setAiVerdict). Returns the settled markets in the order asked.
 */
export async function settleMarkets(ids: number[]) {
  await advanceChainTime(3601);
  const settled = [];
  for (const id of ids) {
    settled.push(
      await eventually(async () => {
        const { market } = await getMarket(id);
        return market.status === 'settled' ? market : null;
      }, 75_000),
    );
  }
  return settled;
}

/** GET /api/oracle/rounds, parsed by its contract. */
export async function getRounds() {
  return RoundsResponseSchema.parse(await (await fetch(`${baseUrl()}/api/oracle/rounds`)).json());
}

/** Waits for a live round with at least `secondsLeft` of betting left (the stack's rounds are 60 s). */
export async function waitForLiveRound(secondsLeft: number) {
  return eventually(async () => {
    const now = await getRounds();
    const current = now.current;
    if (current?.status !== 'live') return null;
    const left = (Date.parse(current.lockTime) - Date.parse(now.serverTime)) / 1000;
    return left >= secondsLeft ? current : null;
  }, 90_000);
}

/** Holds a coin's simulated USD price (BNB's unless named) at `usd` (the dev-only price route of the e2e stack). */
export async function setDevPrice(usd: string, symbol: PriceSymbol = 'BNB'): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/dev/price`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, usd, hold: true }),
  });
  if (!response.ok) throw new Error(`dev price answered ${response.status}`);
}
