import { normalizeAddress } from '@pm/core/address';
import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { CLAIMABLE_LIST_MAX, type ClaimableResponse } from '@pm/core/contract/users';
import { getAddress } from 'viem';
import type { DbOrTx } from '../db/client.ts';
import { toUserBetDto } from '../markets/market-serializers.ts';
import type { OracleBetRow } from '../oracle/oracle-rounds.ts';
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
      bets: oracle.rows.map((row) => ({
        ...toWireOracleBet(row.bet, row.result),
        escrowClaim: escrowClaimOf(row.bet, row),
      })),
    },
  };
}

/**
 * A round bet's claim on the escrow (decision 026): what the wallet's own `claim` (or, for a refunded
 * round, `refund`) needs, once its round's settlement is final on chain. Null for a bet staked into
 * the vault, and until then.
 */
function escrowClaimOf(
  bet: OracleBetRow,
  escrow: {
    escrowMarketKey: string | null;
    escrowRefund: boolean | null;
    escrowClaimableAt: Date | null;
    escrowPayout: bigint | null;
    escrowProof: string[] | null;
  },
): EscrowClaim | null {
  const { escrowMarketKey: market, escrowClaimableAt: claimableAt } = escrow;
  if (bet.stakeId === null || market === null || claimableAt === null) return null;
  const stake = {
    market,
    stakeId: bet.stakeId.toString(),
    owner: getAddress(bet.userAddress),
    amountWei: bet.amount.toString(),
    claimableAt: claimableAt.toISOString(),
  };
  if (escrow.escrowRefund) return { ...stake, payoutWei: bet.amount.toString(), proof: [], refund: true };
  // A winner is a leaf of the list; a bet the list does not pay has nothing to claim there.
  if (escrow.escrowPayout === null || escrow.escrowProof === null) return null;
  return { ...stake, payoutWei: escrow.escrowPayout.toString(), proof: escrow.escrowProof, refund: false };
}
