import { normalizeAddress } from '@pm/core/address';
import type { OracleBet } from '@pm/core/contract/oracle';
import type { EscrowClaim } from '@pm/core/contract/payout-lists';
import { CLAIMABLE_LIST_MAX, type ClaimableResponse, type UserBet } from '@pm/core/contract/users';
import { getAddress } from 'viem';
import type { DbOrTx } from '../../db/client.ts';
import type { bets, oracleBets } from '../../db/schema.ts';
import { readClaimableWithTotals, type UserBetMarket } from './claimable-repository.ts';

/**
 * How a claimable bet is shown: as the markets room and the oracle room show a bet. Those rooms sit
 * above the escrow, so the app passes their serializers (claimable-bet-views.ts).
 */
export type ClaimableBetViews = {
  marketBet: (bet: typeof bets.$inferSelect, market: UserBetMarket) => UserBet;
  roundBet: (bet: typeof oracleBets.$inferSelect, roundResult: string | null) => OracleBet;
};

/**
 * What an address can claim now (docs/product.md §7 claimable reads, case-insensitive): settled market bets
 * that won (stake + profit) or were refunded (stake), and ended rounds' payouts, not yet in a payout; and
 * its flag bonds on the escrow that came back, not yet paid by the contract.
 */
export async function readClaimable(
  db: DbOrTx,
  rawAddress: string,
  views: ClaimableBetViews,
): Promise<ClaimableResponse> {
  // The totals cover every claimable bet, not only the listed ones: the lists are capped.
  const { markets, oracle, bonds } = await readClaimableWithTotals(
    db,
    normalizeAddress(rawAddress),
    CLAIMABLE_LIST_MAX,
  );
  return {
    markets: {
      totalWei: markets.wei.toString(),
      count: markets.count,
      bets: markets.rows.map((row) => ({
        ...views.marketBet(row.bet, row.market),
        escrowClaim: escrowClaimOf(
          { stakeId: row.bet.stakeId, owner: row.bet.userAddress, amount: row.bet.amount },
          row,
        ),
      })),
    },
    oracle: {
      totalWei: oracle.wei.toString(),
      count: oracle.count,
      bets: oracle.rows.map((row) => ({
        ...views.roundBet(row.bet, row.result),
        escrowClaim: escrowClaimOf(
          { stakeId: row.bet.stakeId, owner: row.bet.userAddress, amount: row.bet.amount },
          row,
        ),
      })),
    },
    bonds: {
      totalWei: bonds.wei.toString(),
      count: bonds.count,
      bonds: bonds.rows.map((row) => {
        const bondWei = row.flag.bondAmount ?? 0n;
        return {
          flagId: row.flag.id,
          marketId: row.flag.marketId,
          marketTitle: row.marketTitle,
          fate: row.flag.bondStatus === 'returned_void' ? ('returned_void' as const) : ('returned' as const),
          bondWei: bondWei.toString(),
          returnWei: (row.flag.bondReturnAmount ?? 0n).toString(),
          escrowClaim: escrowClaimOf(
            { stakeId: row.flag.stakeId, owner: row.flag.address, amount: bondWei },
            row,
          ),
        };
      }),
    },
  };
}

/**
 * A stake's claim on the escrow (decision 026): what the wallet's own `claim` (or, for a refunded
 * round or market, `refund`) needs, once its settlement is final on chain. Null until then (and for
 * a row with no stake: test fixtures).
 */
function escrowClaimOf(
  bet: { stakeId: bigint | null; owner: string; amount: bigint },
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
    owner: getAddress(bet.owner),
    amountWei: bet.amount.toString(),
    claimableAt: claimableAt.toISOString(),
  };
  if (escrow.escrowRefund) return { ...stake, payoutWei: bet.amount.toString(), proof: [], refund: true };
  // A winner is a leaf of the list; a bet the list does not pay has nothing to claim there.
  if (escrow.escrowPayout === null || escrow.escrowProof === null) return null;
  return { ...stake, payoutWei: escrow.escrowPayout.toString(), proof: escrow.escrowProof, refund: false };
}
