import { normalizeAddress } from '@pm/core/address';
import type { ClaimBody, ClaimResponse } from '@pm/core/contract/claims';
import { formatBnb } from '@pm/core/money';
import { AppError } from '../errors/app-error.ts';
import { type EscrowClaimResult, type EscrowClaimsDeps, relayEscrowClaims } from '../escrow/escrow-claims.ts';
import type { EscrowClaimableFilter } from '../escrow/escrow-relays-repository.ts';
import { listClaimable, sumPayouts } from './claimable-repository.ts';
import { settlePayout } from './payout-processor.ts';
import type { PayoutProcessorDeps } from './payout-processor-deps.ts';
import {
  countPaidBets,
  findOpenClaim,
  insertPayout,
  linkPayoutBets,
  lockClaims,
  type PayoutRow,
} from './payouts-repository.ts';

export type ClaimsDeps = Omit<PayoutProcessorDeps, 'signer'> & {
  signer: PayoutProcessorDeps['signer'] | null;
  chainId: number;
  /** How long a claim request waits for its payout to be final before answering pending. */
  claimWaitMs: number;
  /**
   * The escrow relay for round bets, market bets and flag bonds staked on the contract (decision 026);
   * null or absent when no escrow is configured (ESCROW_ADDRESS), then only the vault pays.
   */
  escrowClaims?: EscrowClaimsDeps | null;
};

/** What the vault part of a claim paid (or has on its way). */
type VaultPart = { payout: PayoutRow; betsCount: number };

/**
 * POST /api/claims (docs/api.md "Claims"): one request pays both ways. Bets staked into the vault
 * before the switch are paid from the vault in one transfer, exactly as before; round bets, market
 * bets and returned flag bonds staked on the escrow contract are relayed by the operator key
 * (`claimMany`, and `refundMany` for a refunded round or a voided market), the contract paying each
 * stake's owner. The scope picks the game (markets: its bets and bonds); a betId only that market bet. One response:
 * totalWei and betsCount add both; payoutTxHash is the vault's transfer when there is one, else the
 * `claimMany` relay's, else the `refundMany` one's; payoutStatus is confirmed only when every part
 * is final. A part that fails while the other pays is said in the message; when nothing is paid the
 * failure is the answer (PAYOUT_FAILED).
 */
export async function claimWinnings(deps: ClaimsDeps, body: ClaimBody): Promise<ClaimResponse> {
  if (!deps.signer) throw new AppError('CLAIMS_UNAVAILABLE');
  const address = normalizeAddress(body.userAddress);
  // The escrow relay first: it never throws for a relay that fails (it is released and reported),
  // so a vault payout that fails cannot keep the escrow's stakes from being relayed.
  const escrow = deps.escrowClaims
    ? await relayEscrowClaims(deps.escrowClaims, address, escrowFilter(body))
    : null;
  let vault: VaultPart | null = null;
  let vaultError: unknown = null;
  try {
    vault = await claimFromVault(deps, body, address);
  } catch (error) {
    vaultError = error;
  }
  const escrowPaid = escrow !== null && escrow.status !== 'none';
  if (vaultError && !escrowPaid) throw vaultError;
  if (!vault && !escrowPaid) {
    if (escrow && escrow.failures.length > 0) {
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
  return combine(vault, escrowPaid ? escrow : null, vaultError);
}

/** Which of the owner's escrow stakes a claim relays: its scope's game, or the one market bet asked. */
function escrowFilter(body: ClaimBody): EscrowClaimableFilter {
  if (body.betId !== undefined) {
    // A betId names a market bet: in the oracle scope nothing is asked (as the vault's part reads it).
    const betIds = body.scope === 'oracle' ? [] : [body.betId];
    return { games: 'markets', only: { oracleBetIds: [], betIds, flagIds: [] } };
  }
  return { games: body.scope };
}

function nothingMessage(escrow: EscrowClaimResult | null): string {
  if (escrow?.nextClaimableAt) {
    return `No winnings to claim yet: your winnings on the escrow contract can be claimed from ${escrow.nextClaimableAt.toISOString()}`;
  }
  if (escrow && escrow.awaitingSettlement > 0) {
    return 'No winnings to claim yet: your market or round is being settled on the escrow contract';
  }
  return 'No winnings to claim';
}

function combine(
  vault: VaultPart | null,
  escrow: EscrowClaimResult | null,
  vaultError: unknown,
): ClaimResponse {
  const totalWei = (vault?.payout.amount ?? 0n) + (escrow?.totalWei ?? 0n);
  const betsCount = (vault?.betsCount ?? 0) + (escrow?.betsCount ?? 0);
  const vaultConfirmed = !vault || vault.payout.status === 'confirmed';
  const escrowConfirmed = !escrow || escrow.status === 'confirmed';
  const confirmed = vaultConfirmed && escrowConfirmed;
  const amount = formatBnb(totalWei, { decimals: 5, trim: true });
  const notes: string[] = [];
  if (vaultError) {
    notes.push(
      `Your winnings from the vault could not be paid now: ${vaultError instanceof Error ? vaultError.message : String(vaultError)}`,
    );
  }
  if (escrow && escrow.failures.length > 0) {
    notes.push(
      `Some winnings on the escrow could not be relayed (${escrow.failures.join('; ')}); they are still claimable.`,
    );
  }
  const head = confirmed
    ? `Successfully claimed ${amount} BNB from ${betsCount} winning bets!`
    : `Your payout of ${amount} BNB is on its way.`;
  return {
    success: true,
    totalWei: totalWei.toString(),
    betsCount,
    payoutTxHash: vault?.payout.txHash ?? escrow?.claimTxHash ?? escrow?.refundTxHash ?? null,
    payoutStatus: confirmed ? 'confirmed' : 'pending',
    message: [head, ...notes].join(' '),
  };
}

/**
 * Pays every claimable bet of one address in scope the vault holds, in one transfer, to that address
 * and no other. Idempotent: while a claim payout to the address is in flight, claiming again answers
 * that same payout. Null when there is nothing for the vault to pay.
 */
async function claimFromVault(deps: ClaimsDeps, body: ClaimBody, address: string): Promise<VaultPart | null> {
  const { signer } = deps;
  if (!signer) throw new AppError('CLAIMS_UNAVAILABLE');
  const processor = { ...deps, signer };

  const created = await deps.db.transaction(async (tx) => {
    await lockClaims(tx);
    const inFlight = await findOpenClaim(tx, address);
    if (inFlight) return { payout: inFlight, betsCount: await countPaidBets(tx, inFlight.id), reused: true };

    const claimable = await listClaimable(tx, address, {
      games: body.scope,
      betId: body.betId,
      lock: true,
    });
    const marketBets = claimable.markets.map(({ bet }) => bet);
    const roundBets = claimable.oracle.map(({ bet }) => bet);
    const total = sumPayouts(marketBets) + sumPayouts(roundBets);
    if (total === 0n) return null;

    const payout = await insertPayout(tx, {
      chainId: deps.chainId,
      fromAddress: signer.address,
      toAddress: address,
      amount: total,
      kind: 'claim',
    });
    await linkPayoutBets(tx, payout.id, {
      betIds: marketBets.map((bet) => bet.id),
      oracleBetIds: roundBets.map((bet) => bet.id),
    });
    return { payout, betsCount: marketBets.length + roundBets.length, reused: false };
  });

  if (!created) return null;

  if (!created.reused) deps.metrics?.countPayout('created');

  let payout: PayoutRow;
  try {
    // Never replaces: only the background job raises fees (anyone may call this for any address).
    payout = await settlePayout(processor, created.payout.id, deps.claimWaitMs);
  } catch (error) {
    // The payout row and its bets stay linked; the payouts job keeps trying. Nothing is lost.
    throw new AppError('PAYOUT_FAILED', QUEUED_MESSAGE, { cause: error });
  }
  if (payout.status === 'failed') {
    // The address refuses plain transfers: the bets are claimable again, nothing was paid.
    throw new AppError(
      'PAYOUT_FAILED',
      `Failed to claim winnings: the vault cannot pay ${address} (${payout.lastError ?? 'the transfer reverts'}). ` +
        'Your winnings are still claimable; an operator can send them to another address of yours.',
    );
  }
  if (payout.status === 'created' || payout.lastError) {
    throw new AppError('PAYOUT_FAILED', QUEUED_MESSAGE, { cause: new Error(payout.lastError ?? 'unsigned') });
  }
  return { payout, betsCount: created.betsCount };
}

const QUEUED_MESSAGE = 'Failed to claim winnings: the payout is queued and will be retried.';
