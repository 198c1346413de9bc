import { computeRoundPayouts, roundRefundReason } from '@pm/core/payouts';
import { maxFee } from '@pm/escrow/escrow-constants';
import { buildSettlement } from '@pm/escrow/settlement';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { oracleBets, oracleRounds } from '../src/db/schema.ts';
import { settleRoundPayouts } from '../src/oracle/oracle-repository.ts';
import type { StoredRoundResult } from '../src/oracle/oracle-rounds.ts';
import { mulberry32 } from '../src/prices/simulated-feed.ts';
import { insertPayment } from './support/fixtures.ts';
import { at, clearOracleTables, NOON_EPOCH, PLAYERS } from './support/oracle-fixtures.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  await clearOracleTables(database.db);
});
afterAll(() => database?.close());

const RESULTS: StoredRoundResult[] = ['bull', 'bear', 'draw', 'cancelled'];

describe('bulk SQL payouts', () => {
  test('match computeRoundPayouts of @pm/core to the wei, over 60 random rounds', async () => {
    const random = mulberry32(20_250_601);
    const pick = (n: number) => Math.floor(random() * n);
    // Stakes from 0.01 BNB to ~1e6 BNB with awkward digits, so every rounding shows.
    const stake = () =>
      10n ** 16n + BigInt(pick(1_000_000_007)) * 10n ** BigInt(pick(16)) + BigInt(pick(997));

    for (let i = 0; i < 60; i++) {
      const epoch = NOON_EPOCH + 10 + i;
      await database.db.insert(oracleRounds).values({
        epoch,
        status: 'ended',
        startTime: at(i * 600),
        lockTime: at(i * 600 + 300),
        closeTime: at(i * 600 + 600),
      });
      const count = pick(9); // 0..8 bets, sometimes one-sided or empty
      for (let b = 0; b < count; b++) {
        const amount = stake();
        const user = PLAYERS[pick(PLAYERS.length)] ?? PLAYERS[0];
        const payment = await insertPayment(database.db, { from: user, amount, purpose: 'oracle_bet' });
        await database.db.insert(oracleBets).values({
          epoch,
          userAddress: user,
          position: random() < 0.5 ? 'bull' : 'bear',
          amount,
          paymentId: payment.id,
          txHash: payment.txHash,
        });
      }
      const result = RESULTS[pick(RESULTS.length)] ?? 'bull';
      // ORACLE_FEE_BPS is at most 999: the escrow's 10 % cap must hold the fee and the dust.
      const feeBps = [0, 1, 250, 300, 999][pick(5)] ?? 0;
      await database.db.transaction((tx) => settleRoundPayouts(tx, { epoch, result, feeBps }));

      const bets = await database.db
        .select()
        .from(oracleBets)
        .where(eq(oracleBets.epoch, epoch))
        .orderBy(asc(oracleBets.id));
      const expected = computeRoundPayouts({
        bets: bets.map((bet) => ({
          id: bet.id,
          side: bet.position === 'bull' ? 'bull' : 'bear',
          amountWei: bet.amount,
        })),
        result,
        feeBps,
      });
      const expectedById = new Map(expected.payouts.map((payout) => [payout.id, payout.returnWei]));
      for (const bet of bets) {
        expect(bet.payoutAmount, `round ${i} (${result}, fee ${feeBps}) bet ${bet.id}`).toBe(
          expectedById.get(bet.id) ?? 0n,
        );
      }
      const paid = bets.reduce((sum, bet) => sum + (bet.payoutAmount ?? 0n), 0n);
      expect(paid + expected.feeWei + expected.dustWei).toBe(expected.poolWei);

      // Decision 026: what the escrow settlement commits from these returns (stake id → return), the
      // fee with the dust, is the pool to the wei and within the contract's 10 % cap; a round that
      // refunds is settleAsRefund (no list).
      const pools = {
        bullWei: bets.filter((bet) => bet.position === 'bull').reduce((sum, bet) => sum + bet.amount, 0n),
        bearWei: bets.filter((bet) => bet.position === 'bear').reduce((sum, bet) => sum + bet.amount, 0n),
      };
      if (bets.length === 0 || roundRefundReason(result, pools) !== null) continue;
      const settlement = buildSettlement({
        pool: expected.poolWei,
        payouts: bets.flatMap((bet) =>
          (bet.payoutAmount ?? 0n) > 0n ? [{ stakeId: BigInt(bet.id), amount: bet.payoutAmount ?? 0n }] : [],
        ),
        fee: expected.feeWei,
      });
      expect(settlement.payoutTotal).toBe(paid);
      expect(settlement.payoutTotal + settlement.fee).toBe(expected.poolWei);
      expect(settlement.dust).toBe(expected.dustWei);
      expect(settlement.fee).toBeLessThanOrEqual(maxFee(expected.poolWei));
    }
  });
});
