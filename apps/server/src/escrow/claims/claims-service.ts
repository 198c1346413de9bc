import { normalizeAddress } from '@pm/core/address';
import type { ClaimBody, ClaimResponse } from '@pm/core/contract/claims';
import { formatBnb } from '@pm/core/money';
import { AppError } from '../../errors/app-error.ts';
import { type EscrowClaimResult, type EscrowClaimsDeps, relayEscrowClaims } from './escrow-claims.ts';
import type { EscrowClaimableFilter } from './escrow-relays-repository.ts';

/**
 * POST /api/claims (docs/api.md "Claims"): every stake is on the escrow contract (decision 026), so a
 * claim is relayed by the operator key (`claimMany` for winners and returned bonds, `refundMany` for a
 * refunded round or a voided market), the contract paying each stake's owner and nobody else. The
 * scope picks the game (markets: its bets and bonds); a betId only that market bet. payoutTxHash is the
 * `claimMany` relay's, else the `refundMany` one's; payoutStatus is confirmed once every relay is final.
 * Null deps (no ESCROW_ADDRESS or no OPERATOR_PRIVATE_KEY): 503 CLAIMS_UNAVAILABLE; the wallet's own
 * claim from the published payout list still pays.
 */
export async function claimWinnings(deps: EscrowClaimsDeps | null, body: ClaimBody): Promise<ClaimResponse> {
  if (!deps) throw new AppError('CLAIMS_UNAVAILABLE');
  const escrow = await relayEscrowClaims(deps, normalizeAddress(body.userAddress), escrowFilter(body));
  if (escrow.status === 'none') {
    if (escrow.failures.length > 0) {
      throw new AppError(
        'PAYOUT_FAILED',
        `Failed to claim winnings: ${escrow.failures.join('; ')}. Your winnings are still claimable ` +
          "(also with your wallet's own claim, from the published payout list).",
      );
    }
    return {
      success: false,
      totalWei: '0',
      betsCount: 0,
      payoutTxHash: null,
      payoutStatus: 'none',
      message: nothingMessage(escrow),
    };
  }
  return paid(escrow);
}

/** Which of the owner's escrow stakes a claim relays: its scope's game, or the one market bet asked. */
function escrowFilter(body: ClaimBody): EscrowClaimableFilter {
  if (body.betId !== undefined) {
    // A betId names a market bet: in the oracle scope nothing is asked.
    const betIds = body.scope === 'oracle' ? [] : [body.betId];
    return { games: 'markets', only: { oracleBetIds: [], betIds, flagIds: [] } };
  }
  return { games: body.scope };
}

function nothingMessage(escrow: EscrowClaimResult): string {
  if (escrow.nextClaimableAt) {
    return `No winnings to claim yet: your winnings on the escrow contract can be claimed from ${escrow.nextClaimableAt.toISOString()}`;
  }
  if (escrow.awaitingSettlement > 0) {
    return 'No winnings to claim yet: your market or round is being settled on the escrow contract';
  }
  return 'No winnings to claim';
}

function paid(escrow: EscrowClaimResult): ClaimResponse {
  const confirmed = escrow.status === 'confirmed';
  const amount = formatBnb(escrow.totalWei, { decimals: 5, trim: true });
  const head = confirmed
    ? `Successfully claimed ${amount} BNB from ${escrow.betsCount} winning bets!`
    : `Your payout of ${amount} BNB is on its way.`;
  const note =
    escrow.failures.length > 0
      ? ` Some winnings on the escrow could not be relayed (${escrow.failures.join('; ')}); they are still claimable.`
      : '';
  return {
    success: true,
    totalWei: escrow.totalWei.toString(),
    betsCount: escrow.betsCount,
    payoutTxHash: escrow.claimTxHash ?? escrow.refundTxHash,
    payoutStatus: confirmed ? 'confirmed' : 'pending',
    message: head + note,
  };
}
