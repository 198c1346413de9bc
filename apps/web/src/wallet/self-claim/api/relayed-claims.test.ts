import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { beforeEach, describe, expect, test } from 'vitest';
import {
  forgetRelayedClaims,
  loadRelayedClaims,
  recordRelayOutcome,
  rememberRelay,
} from './relayed-claims.ts';

// The relays this browser asked, kept per wallet across reloads until the chain shows them paid.

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const KEY = `pm.relayedRoundClaims.${WALLET.toLowerCase()}`;
const NOW = Date.parse('2026-11-26T12:00:00.000Z');

const claim = (stakeId: number): EscrowClaim => ({
  market: `0x${'ab'.repeat(32)}`,
  stakeId: String(stakeId),
  owner: WALLET,
  amountWei: '1',
  payoutWei: '2',
  proof: [],
  claimableAt: new Date(NOW).toISOString(),
  refund: false,
});

beforeEach(() => window.localStorage.clear());

describe('relayed claims', () => {
  test('a relay is kept with its time, then its answer; asked again, a stake is kept once', () => {
    rememberRelay(
      WALLET,
      [
        { epoch: 1, claim: claim(1) },
        { epoch: 2, claim: claim(2) },
      ],
      NOW,
    );
    recordRelayOutcome(WALLET, NOW, 'failed');
    rememberRelay(WALLET, [{ epoch: 2, claim: claim(2) }], NOW + 1000);
    const kept = loadRelayedClaims(WALLET.toUpperCase().replace('0X', '0x'), NOW + 2000);
    expect(kept.map(({ claim: { stakeId }, at, outcome }) => [stakeId, at, outcome])).toEqual([
      ['2', NOW + 1000, 'sent'],
      ['1', NOW, 'failed'],
    ]);
  });

  test('forgotten once spent, and after 30 days in any case', () => {
    rememberRelay(
      WALLET,
      [
        { epoch: 1, claim: claim(1) },
        { epoch: 2, claim: claim(2) },
      ],
      NOW,
    );
    expect(forgetRelayedClaims(WALLET, new Set(['1'])).map((stake) => stake.claim.stakeId)).toEqual(['2']);
    expect(loadRelayedClaims(WALLET, NOW + 30 * 24 * 3600_000)).toEqual([]);
  });

  test('what does not parse is ignored, not thrown', () => {
    window.localStorage.setItem(KEY, '{not json');
    expect(loadRelayedClaims(WALLET)).toEqual([]);
    window.localStorage.setItem(KEY, JSON.stringify([{ epoch: 1 }, 'x', { ...rememberShape(3), at: NOW }]));
    expect(loadRelayedClaims(WALLET, NOW).map((stake) => stake.claim.stakeId)).toEqual(['3']);
  });
});

describe('market stakes', () => {
  test("a market's bet or bond is kept with its market; an entry naming both or neither is dropped", () => {
    const market = { id: 7, title: 'Will it rain?', bond: true };
    rememberRelay(
      WALLET,
      [
        { market, claim: claim(4) },
        { epoch: 3, claim: claim(3) },
      ],
      NOW,
    );
    expect(loadRelayedClaims(WALLET, NOW).map(({ market: kept, epoch }) => [kept, epoch])).toEqual([
      [market, undefined],
      [undefined, 3],
    ]);
    window.localStorage.setItem(
      KEY,
      JSON.stringify([
        { ...rememberShape(5), at: NOW, market },
        { outcome: 'pending', claim: claim(6), at: NOW },
      ]),
    );
    expect(loadRelayedClaims(WALLET, NOW)).toEqual([]);
  });
});

const rememberShape = (stakeId: number) => ({ epoch: stakeId, outcome: 'pending', claim: claim(stakeId) });
