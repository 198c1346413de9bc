import { describe, expect, test } from 'vitest';
import {
  CHAINS,
  explorerAddressUrl,
  isSupportedChainId,
  MARKET_DURATION_S,
  MIN_MARKET_BET_WEI,
  MIN_ORACLE_BET_WEI,
  SUPPORTED_CHAIN_IDS,
} from './constants.ts';
import { parseBnb } from './money.ts';

describe('constants', () => {
  test('minimum bets equal the spec amounts of 0.005 and 0.01 BNB', () => {
    expect(MIN_MARKET_BET_WEI).toBe(parseBnb('0.005'));
    expect(MIN_ORACLE_BET_WEI).toBe(parseBnb('0.01'));
  });

  test('market durations are one hour and one day', () => {
    expect(MARKET_DURATION_S).toEqual({ hourly: 3600, daily: 86_400 });
  });

  test('every supported chain has its details', () => {
    expect(SUPPORTED_CHAIN_IDS).toEqual([56, 97, 31337]);
    for (const id of SUPPORTED_CHAIN_IDS) expect(CHAINS[id].decimals).toBe(18);
    expect(CHAINS[97].symbol).toBe('tBNB');
    expect(CHAINS[31337].explorerUrl).toBeNull();
  });

  test('only the supported chain ids are recognised', () => {
    expect(isSupportedChainId(56)).toBe(true);
    expect(isSupportedChainId(31337)).toBe(true);
    expect(isSupportedChainId(1)).toBe(false);
  });

  test('the explorer link uses mainnet for chain 56 and the testnet explorer otherwise', () => {
    const address = '0x1234567890abcdef1234567890abcdef12345678';
    expect(explorerAddressUrl(56, address)).toBe(`https://bscscan.com/address/${address}`);
    expect(explorerAddressUrl(97, address)).toBe(`https://testnet.bscscan.com/address/${address}`);
    expect(explorerAddressUrl(31337, address)).toBe(`https://testnet.bscscan.com/address/${address}`);
  });
});
