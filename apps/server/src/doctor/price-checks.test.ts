import { getAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { CHAINLINK_BSC_MAINNET_USD_FEEDS } from '../config/chainlink-bsc-mainnet-usd-feeds.ts';
import { checkFeedAddresses } from './price-checks.ts';

// The address check's branches for BSC mainnet, which no local chain can be (the identity checks and
// the local chain's information line run on a node in test/doctor-feeds.test.ts).

const published = CHAINLINK_BSC_MAINNET_USD_FEEDS;
const DEV_BTC = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

describe('the price feed address check', () => {
  test("on BSC mainnet, Chainlink's published proxies for every coin: ✔", () => {
    expect(checkFeedAddresses(56, published)).toEqual({ ok: true, note: 'all 8 on chain 56' });
    const upperCase = { ...published, BTC: getAddress(published.BTC) };
    expect(checkFeedAddresses(56, upperCase)).toMatchObject({ ok: true });
  });

  test('on BSC mainnet, an address that is not the published one: ✖ naming the coin, both addresses', () => {
    expect(checkFeedAddresses(56, { ...published, BTC: DEV_BTC })).toEqual({
      ok: false,
      reason: `BTC ${getAddress(DEV_BTC)} is not Chainlink's ${getAddress(published.BTC)}`,
    });
    // Two coins' proxies swapped: both named, on one line.
    const swapped = checkFeedAddresses(56, { ...published, BTC: published.ETH, ETH: published.BTC });
    expect(swapped).toEqual({
      ok: false,
      reason: `BTC ${getAddress(published.ETH)} is not Chainlink's ${getAddress(published.BTC)}; ETH ${getAddress(published.BTC)} is not Chainlink's ${getAddress(published.ETH)}`,
    });
  });

  test('on another chain: ✔, the addresses that differ named for information only', () => {
    expect(checkFeedAddresses(97, { ...published, BTC: DEV_BTC })).toEqual({
      ok: true,
      note: `chain 97 is not BSC mainnet; not Chainlink's mainnet proxies (information only): BTC ${getAddress(DEV_BTC)}`,
    });
    expect(checkFeedAddresses(97, published)).toEqual({
      ok: true,
      note: "chain 97 is not BSC mainnet; every address is Chainlink's mainnet one (information only)",
    });
  });
});
