import { normalizeAddress } from '@pm/core/address';
import { CLAIMABLE_LIST_MAX, type ClaimableResponse } from '@pm/core/contract/users';
import type { DbOrTx } from '../db/client.ts';
import { toUserBetDto } from '../markets/market-serializers.ts';
import { toWireOracleBet } from '../oracle/oracle-rounds.ts';
import { readClaimableWithTotals } from './claimable-repository.ts';

/**
 * What an address can claim now (docs/product.md §7 claimable reads, case-insensitive): settled market bets
 * that won (stake + profit) or were refunded (stake), and ended rounds' payouts, not yet in a payout.
 */
export async function readClaimable(db: DbOrTx, rawAddress: string): Promise<ClaimableResponse> {
  // The totals cover every claimable bet, not only the listed ones (review F18: lists are capped).
  const { markets, oracle } = await readClaimableWithTotals(
    db,
    normalizeAddress(rawAddress),
    CLAIMABLE_LIST_MAX,
  );
  return {
    markets: {
      totalWei: markets.wei.toString(),
      count: markets.count,
      bets: markets.rows.map(({ bet, market }) => toUserBetDto(bet, market)),
    },
    oracle: {
      totalWei: oracle.wei.toString(),
      count: oracle.count,
      // escrowClaim: filled once the round's payout list is published (the settlement on the escrow).
      bets: oracle.rows.map(({ bet, result }) => ({ ...toWireOracleBet(bet, result), escrowClaim: null })),
    },
  };
}
