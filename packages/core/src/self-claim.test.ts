import { describe, expect, test } from 'vitest';
import type { EscrowClaim } from './contract/payout-lists.ts';
import {
  type RelayedStake,
  SELF_CLAIM_AFTER_MS,
  selfClaimGame,
  selfClaimOffer,
  selfClaimOpensAt,
} from './self-claim.ts';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const MINUTE = 60_000;

const claim = (stakeId: number, claimableAtMs: number, proof: string[] = []): EscrowClaim => ({
  market: `0x${'ab'.repeat(32)}`,
  stakeId: String(stakeId),
  owner: `0x${'cd'.repeat(20)}`,
  amountWei: '50000000000000000',
  payoutWei: '80000000000000000',
  proof,
  claimableAt: new Date(claimableAtMs).toISOString(),
  refund: false,
});

const relayed = (
  stakeId: number,
  outcome: RelayedStake['outcome'],
  at: number,
  claimableAtMs = NOW - MINUTE,
): RelayedStake => ({ epoch: 100 + stakeId, at, outcome, claim: claim(stakeId, claimableAtMs) });

describe('selfClaimOpensAt', () => {
  test('a relay that failed or is on its way: as soon as the contract pays', () => {
    for (const outcome of ['failed', 'pending'] as const) {
      expect(selfClaimOpensAt({ at: NOW, outcome }, claim(1, NOW - MINUTE))).toBe(NOW);
      expect(selfClaimOpensAt({ at: NOW, outcome }, claim(1, NOW + MINUTE))).toBe(NOW + MINUTE);
    }
  });

  test('a relay with no answer, or answered final: SELF_CLAIM_AFTER_MS (3 minutes) after it was asked', () => {
    expect(SELF_CLAIM_AFTER_MS).toBe(3 * MINUTE);
    for (const outcome of ['sent', 'confirmed'] as const) {
      expect(selfClaimOpensAt({ at: NOW, outcome }, claim(1, NOW - MINUTE))).toBe(NOW + 3 * MINUTE);
      expect(selfClaimOpensAt({ at: NOW, outcome }, claim(1, NOW + 5 * MINUTE))).toBe(NOW + 5 * MINUTE);
    }
  });
});

describe('selfClaimOffer', () => {
  test('nothing relayed: nothing offered, however claimable (the wallet asks the server first)', () => {
    expect(selfClaimOffer([{ epoch: 7, claim: claim(1, NOW - MINUTE) }], [], NOW)).toEqual({
      offered: [],
      nextAtMs: null,
    });
  });

  test('before claimableAt: hidden, and the time it opens is given', () => {
    const relay = relayed(1, 'failed', NOW - MINUTE, NOW + 2 * MINUTE);
    expect(selfClaimOffer([], [relay], NOW)).toEqual({ offered: [], nextAtMs: NOW + 2 * MINUTE });
    expect(selfClaimOffer([], [relay], NOW + 2 * MINUTE).offered).toHaveLength(1);
  });

  test('after a failed relay: offered; after a silent one: only 3 minutes later', () => {
    const failed = relayed(1, 'failed', NOW - 10_000);
    const silent = relayed(2, 'sent', NOW - MINUTE);
    const offer = selfClaimOffer([], [failed, silent], NOW);
    expect(offer.offered.map((stake) => stake.claim.stakeId)).toEqual(['1']);
    expect(offer.nextAtMs).toBe(NOW + 2 * MINUTE);
    expect(
      selfClaimOffer([], [failed, silent], NOW + 2 * MINUTE).offered.map((stake) => stake.claim.stakeId),
    ).toEqual(['2', '1']);
  });

  test("the server's current claim wins over the one kept at the relay (an amended list's proof)", () => {
    const kept = relayed(1, 'failed', NOW - MINUTE);
    const amended = { epoch: kept.epoch, claim: { ...kept.claim, proof: [`0x${'11'.repeat(32)}`] } };
    expect(selfClaimOffer([amended], [kept], NOW).offered).toEqual([amended]);
  });

  test('newest round first; a claim whose time cannot be read is left out', () => {
    const older = relayed(1, 'pending', NOW - MINUTE);
    const newer = relayed(5, 'pending', NOW - MINUTE);
    const unreadable = {
      ...relayed(3, 'pending', NOW - MINUTE),
      claim: { ...claim(3, NOW), claimableAt: 'x' },
    };
    expect(selfClaimOffer([], [older, unreadable, newer], NOW).offered.map((stake) => stake.epoch)).toEqual([
      105, 101,
    ]);
  });
});

describe('market stakes', () => {
  test('a market bet or bond is offered like a round bet, newest stake first, kept with its market', () => {
    const round = relayed(2, 'failed', NOW - MINUTE);
    const market = { id: 9, title: 'Will it rain?', bond: false };
    const bet: RelayedStake = { market, at: NOW - MINUTE, outcome: 'failed', claim: claim(7, NOW - MINUTE) };
    const bond: RelayedStake = {
      market: { ...market, bond: true },
      at: NOW - MINUTE,
      outcome: 'pending',
      claim: claim(4, NOW - MINUTE),
    };
    const { offered } = selfClaimOffer([], [round, bet, bond], NOW);
    expect(offered).toEqual([
      { market, claim: bet.claim },
      { market: { ...market, bond: true }, claim: bond.claim },
      { epoch: 102, claim: round.claim },
    ]);
    expect(offered.map(selfClaimGame)).toEqual(['markets', 'markets', 'oracle']);
  });
});
