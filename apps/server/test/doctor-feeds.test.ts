import { PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { deployDevFeed } from '@pm/escrow/deploy-dev-feed';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEV_PLAYERS } from '../src/config/dev-accounts.ts';
import { deployDevFeeds } from '../src/dev/dev-feeds.ts';
import { feedIdentityTitle } from '../src/doctor/price-checks.ts';
import { runDoctor } from '../src/doctor/run-doctor.ts';
import { startTestChain, type TestChain } from './support/test-chain.ts';

// `npm run ops -- doctor` with PRICE_FEED=chainlink (docs/operations.md "Preflight") on the local chain
// with its dev feeds: each coin's feed says it is that coin's USD feed in 8 decimals, and the addresses,
// not Chainlink's mainnet ones here, are named as information. A feed of another coin at a coin's
// address, a feed in other decimals, or no feed at all fails that coin's line.

let chain: TestChain;
let feeds: Map<PriceSymbol, Address>;
let eighteenDecimals: Address;

beforeAll(async () => {
  chain = await startTestChain();
  const deployed = await deployDevFeeds(chain.rpcUrl);
  feeds = new Map([...deployed].map(([symbol, feed]) => [symbol, feed.proxy]));
  const player = chain.players[0];
  if (!player) throw new Error('no player');
  // A BTC feed like the dev one, but in 18 decimals: an address of the wrong kind of feed.
  const other = await deployDevFeed(player, chain.publicClient, {
    symbol: 'BTC',
    writer: player.account.address,
    decimals: 18,
  });
  eighteenDecimals = other.proxy;
});
afterAll(() => chain?.stop());

const feedOf = (symbol: PriceSymbol): Address => {
  const address = feeds.get(symbol);
  if (!address) throw new Error(`no feed for ${symbol}`);
  return address;
};

/** Doctor over the dev feeds, with `overrides` for some coins' addresses. */
async function doctor(overrides: Partial<Record<PriceSymbol, Address>> = {}) {
  const addresses = PRICE_SYMBOLS.map((symbol) => `${symbol}=${overrides[symbol] ?? feedOf(symbol)}`);
  const lines: string[] = [];
  await runDoctor({
    env: {
      RPC_URL: chain.rpcUrl,
      PRICE_FEED: 'chainlink',
      CHAINLINK_FEED_ADDRESS: overrides.BNB ?? feedOf('BNB'),
      CHAINLINK_FEED_ADDRESSES: addresses.join(','),
    },
    out: (line) => lines.push(line),
    // The database is not what this file checks: its lines fail, the feeds' do not need it.
    openDatabase: async () => {
      throw new Error('no database in this test');
    },
  });
  const line = (title: string) => {
    const found = lines.find((each) => each.slice(2).startsWith(title));
    if (!found) throw new Error(`no line for "${title}" in:\n${lines.join('\n')}`);
    return found;
  };
  return { lines, line };
}

const ADDRESSES_TITLE = "price feed addresses are Chainlink's published BSC mainnet proxies";

describe('ops doctor on the feeds of PRICE_FEED=chainlink', () => {
  test("the dev feeds: each coin's ✔, and the addresses named as information, not failure", async () => {
    const result = await doctor();
    for (const symbol of PRICE_SYMBOLS) {
      expect(result.line(feedIdentityTitle(symbol))).toBe(`✔ ${feedIdentityTitle(symbol)}`);
    }
    expect(feedIdentityTitle('BTC')).toBe('price feed BTC answers as "BTC / USD" with 8 decimals');
    const named = PRICE_SYMBOLS.map((symbol) => `${symbol} ${getAddress(feedOf(symbol))}`).join(', ');
    expect(result.line(ADDRESSES_TITLE)).toBe(
      `✔ ${ADDRESSES_TITLE}: chain 31337 is not BSC mainnet; not Chainlink's mainnet proxies (information only): ${named}`,
    );
  });

  test("ETH's feed at BTC's address: ✖ naming both coins; ETH's own line ✔", async () => {
    const result = await doctor({ BTC: feedOf('ETH') });
    expect(result.line(feedIdentityTitle('BTC'))).toBe(
      `✖ ${feedIdentityTitle('BTC')}: the address holds "ETH / USD", ETH's feed, not BTC's`,
    );
    expect(result.line(feedIdentityTitle('ETH'))).toBe(`✔ ${feedIdentityTitle('ETH')}`);
  });

  test('a BTC feed in 18 decimals: ✖, every price would be mis-scaled', async () => {
    const result = await doctor({ BTC: eighteenDecimals });
    expect(result.line(feedIdentityTitle('BTC'))).toBe(
      `✖ ${feedIdentityTitle('BTC')}: it answers with 18 decimals, not 8: every price would be mis-scaled`,
    );
  });

  test('no feed at the address (an account without code): ✖, one line', async () => {
    const result = await doctor({ DOGE: getAddress(DEV_PLAYERS[1].address) });
    const line = result.line(feedIdentityTitle('DOGE'));
    expect(line).toMatch(
      /^✖ price feed DOGE answers as "DOGE \/ USD" with 8 decimals: decimals\(\) and description\(\) could not be read: /,
    );
    expect(line).not.toContain('\n');
  });
});
