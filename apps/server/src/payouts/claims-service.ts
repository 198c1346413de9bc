import { normalizeAddress } from '@pm/core/address';
import type { ClaimBody, ClaimResponse } from '@pm/core/contract/claims';
import { formatBnb } from '@pm/core/money';
import { AppError } from '../errors/app-error.ts';
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
};

/**
 * Pays every claimable bet of one address in scope from the vault, in one transfer, to that
 * address and no other. Idempotent: while a claim payout to the address is in flight, claiming
 * again answers that same payout.
 */
export async function claimWinnings(deps: ClaimsDeps, body: ClaimBody): Promise<ClaimResponse> {
  const { signer } = deps;
  if (!signer) throw new AppError('CLAIMS_UNAVAILABLE');
  const processor = { ...deps, signer };
  const address = normalizeAddress(body.userAddress);

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

  if (!created) {
    return {
      success: false,
      totalWei: '0',
      betsCount: 0,
      payoutTxHash: null,
      payoutStatus: 'none',
      message: 'No winnings to claim',
    };
  }

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
  const amount = formatBnb(payout.amount, { decimals: 5, trim: true });
  const confirmed = payout.status === 'confirmed';
  return {
    success: true,
    totalWei: payout.amount.toString(),
    betsCount: created.betsCount,
    payoutTxHash: payout.txHash,
    payoutStatus: confirmed ? 'confirmed' : 'pending',
    message: confirmed
      ? `Successfully claimed ${amount} BNB from ${created.betsCount} winning bets!`
      : `Your payout of ${amount} BNB is on its way.`,
  };
}

const QUEUED_MESSAGE = 'Failed to claim winnings: the payout is queued and will be retried.';
