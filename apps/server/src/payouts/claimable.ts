import { normalizeAddress } from '@pm/core/address';
import { CLAIMABLE_LIST_MAX, type ClaimableResponse } from '@pm/core/contract/users';
import type { DbOrTx } from '../db/client.ts';
import { toUserBetDto } from '../markets/market-serializers.ts';
import { toWireOracleBet } from '../oracle/oracle-rounds.ts';
import { listClaimable, sumClaimable } from './claimable-repository.ts';

/**
 * What an address can claim now (docs/product.md §7 claimable reads, case-insensitive): settled market bets
 * that won (stake + profit) or were refunded (stake), and ended rounds' payouts, not yet in a payout.
 */
export async function readClaimable(db: DbOrTx, rawAddress: string): Promise<ClaimableResponse> {
  const address = normalizeAddress(rawAddress);
  const listed = await listClaimable(db, address, { limit: CLAIMABLE_LIST_MAX });
  // The totals cover every claimable bet, not only the listed ones (review F18: lists are capped).
  const totals = await sumClaimable(db, address);
  return {
    markets: {
      totalWei: totals.markets.wei.toString(),
      count: totals.markets.count,
      bets: listed.markets.map(({ bet, market }) => toUserBetDto(bet, market)),
    },
    oracle: {
      totalWei: totals.oracle.wei.toString(),
      count: totals.oracle.count,
      bets: listed.oracle.map(({ bet, result }) => toWireOracleBet(bet, result)),
    },
  };
}
