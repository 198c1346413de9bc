import fc from 'fast-check';
import { keccak256, parseEther, toHex } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { maxFee } from '../src/escrow-constants.ts';
import { claimFor, parsePayoutList, toPayoutList } from '../src/payout-list.ts';
import { buildPayoutTree } from '../src/payout-tree.ts';
import { buildSettlement, settleArgs } from '../src/settlement.ts';
import { verifySettlement } from '../src/verify-settlement.ts';
import {
  BETTORS,
  createEscrowWorld,
  type EscrowWorld,
  expectRevert,
  HOUR,
  OPERATOR,
  type StakeRef,
} from './escrow-fixture.ts';

// Random stakes and payouts through the whole library on the contract: whatever buildSettlement
// builds, `settle` takes; every claim claimFor makes from the published list pays; the market pays
// out exactly payoutTotal; and the list verifies. What buildSettlement refuses for the fee cap, the
// contract refuses too. CI runs a few; ESCROW_FUZZ_RUNS=200 runs many.

const RUNS = Number(process.env.ESCROW_FUZZ_RUNS ?? 6);

let world: EscrowWorld;
beforeAll(async () => {
  world = await createEscrowWorld();
});
afterAll(() => world?.stop());

const relayer = BETTORS[8];

const stakeArbitrary = fc.record({
  bettor: fc.nat(7),
  // Mostly BNB-sized stakes, sometimes a few wei (where rounding dust can pass the fee cap).
  amount: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: parseEther('0.001'), max: parseEther('2') }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
  ),
  /** The stake's share of the payouts; 0 is a losing stake. */
  weight: fc.oneof(
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }) },
  ),
});

let run = 0;

test('whatever buildSettlement builds, the contract takes, and every claim of the list pays it', async () => {
  const outcomes = { settled: 0, refusedForFee: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.array(stakeArbitrary, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 0, max: 1000 }),
      async (bets, feeBps) => {
        run += 1;
        const market = await world.openMarket(`settlement property ${run}`);
        const stakes: StakeRef[] = [];
        for (const bet of bets)
          stakes.push(await world.deposit(BETTORS[bet.bettor] ?? BETTORS[0], market, bet.amount));
        await world.travel(HOUR);

        const [pool] = await world.read.markets([market.key]);
        const fee = (pool * BigInt(feeBps)) / 10_000n;
        const winners = bets
          .map((bet, index) => ({ bet, stake: stakes[index] as StakeRef }))
          .filter(({ bet }) => bet.weight > 0);
        const weights = winners.reduce((sum, { bet }) => sum + BigInt(bet.weight), 0n);
        // The winners share the pool less the fee by weight, rounded down: the rest is dust.
        const payouts = winners
          .map(({ bet, stake }) => ({
            stakeId: stake.stakeId,
            amount: ((pool - fee) * BigInt(bet.weight)) / weights,
          }))
          .filter((payout) => payout.amount > 0n);
        if (payouts.length === 0) return; // no winners: a void, not a settlement

        const verdictHash = keccak256(toHex(`verdict ${run}`));
        const total = payouts.reduce((sum, payout) => sum + payout.amount, 0n);
        if (pool - total > maxFee(pool)) {
          // Too much left to the fee: the library refuses, and the contract refuses the same numbers.
          expect(() => buildSettlement({ pool, payouts, fee })).toThrow(/above the contract's cap/);
          const tree = buildPayoutTree(payouts);
          await expectRevert(
            world
              .as(OPERATOR)
              .write.settle([market.key, 1, verdictHash, tree.root, total, pool - total, 600]),
            'FeeTooHigh',
          );
          outcomes.refusedForFee += 1;
          return;
        }

        const settlement = buildSettlement({ pool, payouts, fee });
        expect(settlement.payoutTotal + settlement.fee).toBe(pool);
        await world.mined(
          world
            .as(OPERATOR)
            .write.settle(
              settleArgs(settlement, { marketKey: market.key, outcome: 1, verdictHash, delay: 600 }),
            ),
        );
        const list = parsePayoutList(
          JSON.stringify(
            toPayoutList({
              chainId: 31337,
              escrow: world.address,
              market,
              outcome: 1,
              verdictHash,
              settlement,
              stakes,
            }),
          ),
        );
        await world.travel(600);
        const before = await world.publicClient.getBalance({ address: world.address });
        for (const leaf of list.leaves) {
          await world.mined(world.as(relayer).write.claim([claimFor(list, leaf.stakeId)]));
        }
        const paidOut = before - (await world.publicClient.getBalance({ address: world.address }));
        expect(paidOut).toBe(settlement.payoutTotal);
        const { payoutTotal, paid } = await world.market(market.key);
        expect(paid).toBe(payoutTotal);
        const report = await verifySettlement(world.publicClient, world.address, list);
        expect(report.discrepancies).toEqual([]);
        outcomes.settled += 1;
      },
    ),
    {
      numRuns: RUNS,
      endOnFailure: true,
      // Histories known to settle and to be refused run first, so the property never checks one side only.
      examples: [
        [
          [
            { bettor: 0, amount: parseEther('1') + 1n, weight: 2 },
            { bettor: 1, amount: parseEther('0.3'), weight: 1 },
            { bettor: 2, amount: 7n, weight: 0 },
          ],
          250,
        ],
        [
          [
            { bettor: 3, amount: 3n, weight: 1 },
            { bettor: 4, amount: 4n, weight: 1 },
          ],
          0,
        ],
      ],
    },
  );
  console.log('settlement property runs:', outcomes);
  expect(outcomes.settled).toBeGreaterThan(0);
  expect(outcomes.refusedForFee).toBeGreaterThan(0);
}, 600_000);
