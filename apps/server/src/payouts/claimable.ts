import { normalizeAddress } from '@pm/core/address';
import type { ClaimableResponse } from '@pm/core/contract/users';
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { bets, markets, oracleBets, oracleRounds } from '../db/schema.ts';
import { toUserBetDto } from '../markets/market-serializers.ts';
import { toWireOracleBet } from '../oracle/oracle-rounds.ts';

/**
 * What an address can claim now (spec §7 claimable reads, case-insensitive): settled market bets
 * that won (stake + profit) or were refunded (stake), and ended rounds' payouts, not yet in a payout.
 */
export async function readClaimable(db: DbOrTx, rawAddress: string): Promise<ClaimableResponse> {
  const address = normalizeAddress(rawAddress);
  const marketRows = await db
    .select({ bet: bets, market: markets })
    .from(bets)
    .innerJoin(markets, eq(markets.id, bets.marketId))
    .where(
      and(
        eq(bets.userAddress, address),
        isNull(bets.payoutId),
        eq(markets.status, 'settled'),
        inArray(bets.status, ['won', 'refunded']),
      ),
    )
    .orderBy(desc(bets.createdAt));
  const roundRows = await db
    .select({ bet: oracleBets, result: oracleRounds.result })
    .from(oracleBets)
    .innerJoin(oracleRounds, eq(oracleRounds.epoch, oracleBets.epoch))
    .where(
      and(
        eq(oracleBets.userAddress, address),
        isNull(oracleBets.payoutId),
        eq(oracleBets.claimed, false),
        gt(oracleBets.payoutAmount, 0n),
      ),
    )
    .orderBy(desc(oracleBets.createdAt));

  let marketsWei = 0n;
  for (const { bet } of marketRows)
    marketsWei += bet.amount + (bet.status === 'won' ? (bet.payoutAmount ?? 0n) : 0n);
  let oracleWei = 0n;
  for (const { bet } of roundRows) oracleWei += bet.payoutAmount ?? 0n;

  return {
    markets: {
      totalWei: marketsWei.toString(),
      bets: marketRows.map(({ bet, market }) => toUserBetDto(bet, market)),
    },
    oracle: {
      totalWei: oracleWei.toString(),
      bets: roundRows.map(({ bet, result }) => toWireOracleBet(bet, result)),
    },
  };
}
