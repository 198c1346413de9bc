import { computeBondedMarketPayouts } from '@pm/core/flag-bonds';
import { bpsOf } from '@pm/core/money';
import { computeMarketPayouts } from '@pm/core/payouts';
import fc from 'fast-check';
import { type Address, parseEther } from 'viem';
import { describe, expect, test } from 'vitest';
import { buildPayoutTree } from '../payout-tree.ts';
import { buildSettlement } from '../settlement.ts';
import { type JudgedStake, recomputeJudgedPayouts } from './recompute-judged-payouts.ts';

const YES = 1;
const NO = 2;
const BOND = 0;
const VOID = 4;
const OWNER: Address = '0x00000000000000000000000000000000000000a1';
const stake = (stakeId: number, side: number, bnb: string): JudgedStake => ({
  stakeId: BigInt(stakeId),
  owner: OWNER,
  amount: parseEther(bnb),
  side,
});
const payoutOf = (result: ReturnType<typeof recomputeJudgedPayouts>, stakeId: number) =>
  result.stakes.find((entry) => entry.stakeId === BigInt(stakeId))?.payout;

/** alice YES 1, carol YES 0.3, bob NO 0.5, dave NO 0.25: settled YES at 2 %, the fee is 0.015 BNB. */
const market = [stake(1, YES, '1'), stake(2, YES, '0.3'), stake(3, NO, '0.5'), stake(4, NO, '0.25')];

describe('recomputeJudgedPayouts', () => {
  test('the winners share the losing pool after a fee on it, pro rata to stake; the losers get nothing', () => {
    const result = recomputeJudgedPayouts({
      stakes: market,
      refunded: [],
      outcome: YES,
      disputedOutcome: null,
      feeBps: 200,
    });
    // 0.735 BNB to share over 1.3 BNB of winning stakes, each share rounded down.
    expect(payoutOf(result, 1)).toBe(
      parseEther('1') + (parseEther('1') * parseEther('0.735')) / parseEther('1.3'),
    );
    expect(payoutOf(result, 2)).toBe(
      parseEther('0.3') + (parseEther('0.3') * parseEther('0.735')) / parseEther('1.3'),
    );
    expect([payoutOf(result, 3), payoutOf(result, 4)]).toEqual([0n, 0n]);
    expect(result.payouts.map((payout) => payout.stakeId)).toEqual([1n, 2n]);
    expect(result.ruleFee).toBe(parseEther('0.015'));
    expect(result.fee).toBe(result.ruleFee + result.dust);
    expect(result.payoutTotal + result.fee).toBe(parseEther('2.05'));
    expect(result.bondFate).toBeNull();
  });

  test('a stake refunded before the settlement is neither paid nor counted in the pool', () => {
    const result = recomputeJudgedPayouts({
      stakes: market,
      refunded: [4n],
      outcome: YES,
      disputedOutcome: null,
      feeBps: 200,
    });
    expect(result.stakes.map((entry) => entry.stakeId)).toEqual([1n, 2n, 3n]);
    expect(result.pool).toBe(parseEther('1.8'));
    expect(result.ruleFee).toBe(parseEther('0.01'));
  });

  test('an overturned verdict returns the bond with a reward out of the fee, capped at the bond', () => {
    // Settled NO, disputed by the YES side, settled YES: the whole fee of 0.015 goes to the bond.
    const result = recomputeJudgedPayouts({
      stakes: [...market, stake(5, BOND, '0.1')],
      refunded: [],
      outcome: YES,
      disputedOutcome: NO,
      feeBps: 200,
    });
    expect(result.bondFate).toBe('returned');
    expect(payoutOf(result, 5)).toBe(parseEther('0.115'));
    expect(result.ruleFee).toBe(0n);
    // The winners' payouts are untouched by a dispute that was right.
    const plain = recomputeJudgedPayouts({
      stakes: market,
      refunded: [],
      outcome: YES,
      disputedOutcome: null,
      feeBps: 200,
    });
    expect(payoutOf(result, 1)).toBe(payoutOf(plain, 1));
    expect(result.payoutTotal + result.fee).toBe(parseEther('2.15'));
  });

  test('a confirmed verdict forfeits the bond to the winners, pro rata to stake', () => {
    const result = recomputeJudgedPayouts({
      stakes: [...market, stake(5, BOND, '0.1')],
      refunded: [],
      outcome: YES,
      disputedOutcome: YES,
      feeBps: 200,
    });
    expect(result.bondFate).toBe('forfeited');
    expect(payoutOf(result, 5)).toBe(0n);
    expect(payoutOf(result, 1)).toBe(
      parseEther('1') + (parseEther('1') * parseEther('0.835')) / parseEther('1.3'),
    );
    expect(result.ruleFee).toBe(parseEther('0.015'));
  });

  test('a void verdict, or one with nobody on its side, gives every stake and bond back and keeps no fee', () => {
    for (const [outcome, stakes] of [
      [VOID, [...market, stake(5, BOND, '0.1')]],
      [NO, [stake(1, YES, '1'), stake(2, YES, '0.3')]],
    ] as const) {
      const result = recomputeJudgedPayouts({
        stakes,
        refunded: [],
        outcome,
        disputedOutcome: outcome === VOID ? YES : null,
        feeBps: 200,
      });
      expect(result.stakes.every((entry) => entry.payout === entry.amount)).toBe(true);
      expect(result.fee).toBe(0n);
    }
  });

  test('inputs the chain cannot produce are refused', () => {
    const base = { stakes: market, refunded: [], outcome: YES, disputedOutcome: null, feeBps: 200 };
    expect(() => recomputeJudgedPayouts({ ...base, outcome: 3 })).toThrow(/no market outcome/);
    expect(() => recomputeJudgedPayouts({ ...base, stakes: [...market, stake(1, NO, '1')] })).toThrow(
      /twice/,
    );
    expect(() => recomputeJudgedPayouts({ ...base, stakes: [stake(1, 5, '1')] })).toThrow(/no side/);
    expect(() => recomputeJudgedPayouts({ ...base, refunded: [9n] })).toThrow(/not a stake listed/);
    expect(() => recomputeJudgedPayouts({ ...base, stakes: [...market, stake(5, BOND, '0.1')] })).toThrow(
      /no disputed outcome/,
    );
  });
});

// Markets as the chain can hold them: bets of at least the contract's minimum (0.005 BNB), bonds of
// at least its floor (0.01 BNB), some refunded, any fee up to the contract's cap of 10 %.
const amountArb = fc.bigInt({ min: parseEther('0.005'), max: parseEther('50') });
const marketArb = fc
  .record({
    bets: fc.array(fc.record({ side: fc.constantFrom(YES, NO), amount: amountArb }), {
      minLength: 1,
      maxLength: 12,
    }),
    bonds: fc.array(fc.bigInt({ min: parseEther('0.01'), max: parseEther('5') }), { maxLength: 3 }),
    refundEvery: fc.integer({ min: 0, max: 5 }),
    outcome: fc.constantFrom(YES, NO, VOID),
    disputedOutcome: fc.constantFrom(YES, NO, VOID),
    feeBps: fc.integer({ min: 0, max: 1000 }),
  })
  .map((drawn) => {
    const stakes = [
      ...drawn.bets.map((bet, index) => ({ stakeId: BigInt(index + 1), owner: OWNER, ...bet })),
      ...drawn.bonds.map((amount, index) => ({
        stakeId: BigInt(100 + index),
        owner: OWNER,
        amount,
        side: BOND,
      })),
    ];
    const refunded =
      drawn.refundEvery === 0
        ? []
        : stakes.filter((_, index) => index % drawn.refundEvery === 1).map((s) => s.stakeId);
    return {
      stakes,
      refunded,
      outcome: drawn.outcome,
      disputedOutcome: drawn.bonds.length > 0 ? drawn.disputedOutcome : null,
      feeBps: drawn.feeBps,
    };
  });

const NAME = { [YES]: 'YES', [NO]: 'NO', [VOID]: 'VOID' } as const;
const nameOf = (code: number) => (code === YES ? NAME[YES] : code === NO ? NAME[NO] : NAME[VOID]);

test('the recomputed payouts conserve the pool and follow the rules stake by stake', () => {
  fc.assert(
    fc.property(marketArb, (input) => {
      const result = recomputeJudgedPayouts(input);
      const gone = new Set(input.refunded);
      const kept = input.stakes.filter((entry) => !gone.has(entry.stakeId));
      const bets = kept.filter((entry) => entry.side !== BOND);
      const bonds = kept.filter((entry) => entry.side === BOND);
      const sum = (values: ReadonlyArray<{ amount: bigint }>) =>
        values.reduce((total, v) => total + v.amount, 0n);
      const winners = bets.filter((entry) => entry.side === input.outcome);
      const winning = sum(winners);
      const losing = sum(bets) - winning;
      const refundsAll = input.outcome === VOID || winning === 0n;

      // Σ payouts + fee = pool (stakes + bonds − refunded), and the fee is the rule's plus dust.
      expect(result.stakes.map((entry) => entry.stakeId)).toEqual(kept.map((entry) => entry.stakeId));
      expect(result.pool).toBe(sum(kept));
      expect(result.payoutTotal + result.fee).toBe(result.pool);
      expect(result.fee).toBe(result.ruleFee + result.dust);
      // The dust is under one wei per winning bet; the rule's fee never passes the fee on the losing pool.
      expect(result.dust >= 0n && result.dust < BigInt(Math.max(1, winners.length))).toBe(true);
      expect(result.ruleFee >= 0n && result.ruleFee <= bpsOf(losing, input.feeBps)).toBe(true);
      for (const entry of result.stakes) {
        if (refundsAll) expect(entry.payout).toBe(entry.amount);
        else if (entry.side === BOND) {
          // Forfeited: nothing; overturned: the bond and a reward of at most the bond.
          if (result.bondFate === 'forfeited') expect(entry.payout).toBe(0n);
          else expect(entry.payout >= entry.amount && entry.payout <= 2n * entry.amount).toBe(true);
        } else if (entry.side !== input.outcome) expect(entry.payout).toBe(0n);
        else {
          // A winner gets its stake and its share of the losing pool after the fee, never less.
          const share = (entry.amount * (losing - bpsOf(losing, input.feeBps))) / winning;
          expect(entry.payout >= entry.amount + share).toBe(true);
        }
      }
      if (refundsAll) expect(result.fee).toBe(0n);
      if (bonds.length === 0) expect(result.bondFate).toBeNull();
      // The list does not depend on the order the stakes come in.
      if (result.payouts.length > 0) {
        const reversed = recomputeJudgedPayouts({ ...input, stakes: [...input.stakes].reverse() });
        expect(buildPayoutTree(reversed.payouts).root).toBe(buildPayoutTree(result.payouts).root);
      }
    }),
    { numRuns: 30 },
  );
});

/**
 * The settlement apps/server/src/escrow/settlements/settlement-plans.ts builds from its database, by the
 * same core calls: a market in review pays computeMarketPayouts' returns with its fee; a settled one
 * pays the returns settleMarket wrote (computeBondedMarketPayouts, which its SQL follows term for
 * term) with the fee less the flaggers' rewards; then buildSettlement over the pool.
 */
function serverPlan(input: {
  stakes: readonly JudgedStake[];
  outcome: number;
  disputedOutcome: number | null;
  feeBps: number;
}) {
  const result = nameOf(input.outcome);
  const bets = input.stakes.flatMap((entry) =>
    entry.side === BOND
      ? []
      : [
          {
            id: entry.stakeId,
            side: entry.side === YES ? ('YES' as const) : ('NO' as const),
            amountWei: entry.amount,
          },
        ],
  );
  const bonds = input.stakes.flatMap((entry) =>
    entry.side === BOND ? [{ id: entry.stakeId, amountWei: entry.amount }] : [],
  );
  const pool = input.stakes.reduce((sum, entry) => sum + entry.amount, 0n);
  let returns: Map<bigint, bigint>;
  let ruleFee: bigint;
  if (input.disputedOutcome === null) {
    const computed = computeMarketPayouts({ bets, result, feeBps: input.feeBps });
    returns = new Map(computed.payouts.map((payout) => [payout.id, payout.returnWei]));
    ruleFee = computed.feeWei;
  } else {
    const written = computeBondedMarketPayouts({
      bets,
      bonds,
      proposedResult: nameOf(input.disputedOutcome),
      result,
      feeBps: input.feeBps,
    });
    returns = new Map([
      ...written.bets.payouts.map((payout): [bigint, bigint] => [payout.id, payout.returnWei]),
      ...written.bonds.bonds.map((bond): [bigint, bigint] => [bond.id, bond.returnWei]),
    ]);
    const rewards = written.bonds.bonds.reduce((sum, bond) => sum + bond.rewardWei, 0n);
    ruleFee = computeMarketPayouts({ bets, result, feeBps: input.feeBps }).feeWei - rewards;
  }
  const payouts = input.stakes.flatMap((entry) => {
    const amount = returns.get(entry.stakeId) ?? 0n;
    return amount > 0n ? [{ stakeId: entry.stakeId, amount }] : [];
  });
  return buildSettlement({ pool, payouts, fee: ruleFee });
}

test('the server’s settlement plan and the chain’s recomputation give the same root, total and fee', () => {
  fc.assert(
    fc.property(marketArb, (input) => {
      const gone = new Set(input.refunded);
      const kept = input.stakes.filter((entry) => !gone.has(entry.stakeId));
      if (kept.length === 0) return;
      const plan = serverPlan({ ...input, stakes: kept });
      const recomputed = recomputeJudgedPayouts(input);
      expect(buildPayoutTree(recomputed.payouts).root).toBe(plan.root);
      expect(recomputed.payoutTotal).toBe(plan.payoutTotal);
      expect(recomputed.fee).toBe(plan.fee);
      expect(recomputed.dust).toBe(plan.dust);
    }),
    { numRuns: 30 },
  );
});
