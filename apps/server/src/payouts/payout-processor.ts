import { replacementFees } from '@pm/core/vault-transfers';
import { isHex, type TransactionReceipt } from 'viem';
import type { DbOrTx } from '../db/client.ts';
import { describeError } from '../errors/describe-error.ts';
import { publish } from '../realtime/outbox-repository.ts';
import { failPayout, requeuePayout } from './fail-payout.ts';
import {
  cappedMarketFees,
  FEE_REFUSED_PREFIX,
  findMinedReceipt,
  isFinal,
  readFinalNonce,
  sendRaw,
} from './payout-chain.ts';
import { type PayoutProcessorDeps, SimulatedCrash } from './payout-processor-deps.ts';
import {
  confirmPayout,
  findPayout,
  listOpenPayoutIds,
  markPayoutBroadcast,
  type PayoutRow,
} from './payouts-repository.ts';
import { recordError, resignPayout, signNewPayout, signNonceRelease } from './sign-payout.ts';

// docs/architecture.md "Claims and payouts" (pattern: OpenZeppelin Relayer's EVM transaction states), decision 002.
// A payout is a row first; it gets its nonce when it is signed, and its raw transaction and hash are
// stored before it is sent. On restart the stored bytes are sent again — never re-signed at a new
// nonce while the old one could still mine. Only the background job replaces a stuck transaction
// (same nonce, fees +12.5%, under the ceiling). Bets become claimed only when final.

/** Written when the chain's final nonce is past a payout's and none of its hashes has a receipt. */
const NONCE_TAKEN_PREFIX = 'nonce used by another transaction: ';

/**
 * Moves one payout as far as it can go now; answers it afterwards. `mayReplace` is for the
 * background job and the operator only: a claim request (unauthenticated, any address) never
 * raises a payout's fees.
 */
export async function advancePayout(
  deps: PayoutProcessorDeps,
  payoutId: number,
  options: { mayReplace?: boolean } = {},
): Promise<PayoutRow> {
  let payout = await loadPayout(deps.db, payoutId);
  if (payout.status === 'created') payout = await signNewPayout(deps, payout);
  const nonce = payout.nonce;
  if ((payout.status !== 'signed' && payout.status !== 'broadcast') || nonce === null) return payout;

  // Read before the receipts: a nonce final before we look cannot hide a receipt of ours.
  const finalNonce = await readFinalNonce(deps.chain, deps.signer.address, deps.confirmations);
  const mined = await findMinedReceipt(deps.chain, payout.txHashes);
  if (mined) return settleMined(deps, payout, mined);
  if (finalNonce > nonce) return nonceTaken(deps, payout, nonce);

  if (payout.cancelRawTx && isHex(payout.cancelRawTx)) {
    const outcome = await sendRaw(deps.chain, payout.cancelRawTx);
    return outcome.kind === 'sent'
      ? payout
      : recordError(deps, payout.id, `nonce release: ${outcome.message}`);
  }
  if (options.mayReplace) payout = await maybeReprice(deps, payout);
  const rawTx = payout.rawTx;
  if (!rawTx || !isHex(rawTx)) throw new Error(`payout ${payout.id} has no signed transaction`);
  const outcome = await sendRaw(deps.chain, rawTx);
  switch (outcome.kind) {
    case 'sent':
      if (deps.crashAfter === 'broadcast') throw new SimulatedCrash('after broadcast');
      return markBroadcast(deps, payout);
    case 'nonce-too-low': {
      // Ours, mined since we looked (another instance or request sent the same bytes)? Else not
      // "sent": the next runs read the final nonce and our receipts to learn whose it was.
      const minedNow = await findMinedReceipt(deps.chain, payout.txHashes);
      if (minedNow) return settleMined(deps, payout, minedNow);
      return recordError(deps, payout.id, `broadcast: ${outcome.message}`);
    }
    case 'fee-refused':
      return recordError(deps, payout.id, `${FEE_REFUSED_PREFIX}${outcome.message}`);
    case 'insufficient-funds':
      // Freeing the nonce replaces the transaction: the job's call, never a claim request's.
      if (!options.mayReplace) return recordError(deps, payout.id, `broadcast: ${outcome.message}`);
      return releaseNonce(deps, payout, outcome.message);
    case 'refused':
      await recordError(deps, payout.id, `broadcast: ${outcome.message}`);
      throw outcome.error;
  }
}

/** Waits (bounded) for a payout to be final, advancing it once; never replaces (claim requests). */
export async function settlePayout(
  deps: PayoutProcessorDeps,
  payoutId: number,
  waitMs: number,
): Promise<PayoutRow> {
  const deadline = Date.now() + waitMs;
  let payout = await advancePayout(deps, payoutId);
  // Waiting helps only a payout that is out and whose broadcast was not refused.
  while (payout.status === 'broadcast' && !payout.lastError && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const mined = await findMinedReceipt(deps.chain, payout.txHashes);
    payout = mined ? await settleMined(deps, payout, mined) : await loadPayout(deps.db, payoutId);
  }
  return payout;
}

/**
 * Every open payout: signed ones by nonce (a later nonce cannot mine before an earlier one), then
 * created ones oldest first. One payout's failure is stored on its row and logged; the rest go on.
 */
export async function advanceOpenPayouts(deps: PayoutProcessorDeps): Promise<{ failed: number }> {
  const open = await listOpenPayoutIds(deps.db, deps.signer.address);
  let failed = 0;
  for (const id of open) {
    try {
      await advancePayout(deps, id, { mayReplace: true });
    } catch (error) {
      failed += 1;
      deps.log?.error({ err: error, payoutId: id }, 'payout step failed; it is retried next run');
      await recordError(deps, id, describeError(error)).catch(() => undefined);
    }
  }
  return { failed };
}

async function loadPayout(db: DbOrTx, id: number): Promise<PayoutRow> {
  const row = await findPayout(db, id);
  if (!row) throw new Error(`payout ${id} not found`);
  return row;
}

async function settleMined(deps: PayoutProcessorDeps, payout: PayoutRow, receipt: TransactionReceipt) {
  if (receipt.status === 'success') return confirmIfFinal(deps, payout, receipt);
  const reason = `transaction ${receipt.transactionHash} reverted on chain: ${payout.toAddress} refused the transfer`;
  deps.log?.warn({ payoutId: payout.id, reason }, 'payout failed');
  return failPayout(deps.db, payout, reason, deps.metrics);
}

/**
 * The chain's final nonce is past ours and none of our hashes has a receipt: another transaction
 * used the nonce. Seen twice (one look could be a lagging RPC node), the payout is re-issued at a
 * fresh nonce; none of its own transactions can mine any more.
 */
async function nonceTaken(deps: PayoutProcessorDeps, payout: PayoutRow, nonce: bigint): Promise<PayoutRow> {
  const reason = `${NONCE_TAKEN_PREFIX}nonce ${nonce} is final on chain without any of this payout's transactions`;
  if (!payout.lastError?.startsWith(NONCE_TAKEN_PREFIX)) return recordError(deps, payout.id, reason);
  deps.log?.warn(
    { payoutId: payout.id, nonce: String(nonce) },
    'payout nonce used elsewhere; signing it again',
  );
  return requeuePayout(deps.db, payout, `${reason}; signed again at a fresh nonce`, deps.metrics);
}

/**
 * The vault cannot fund this signed payout any more (balance fell after signing). Its nonce would
 * hold back every later payout, so a 0-value self-transfer takes the nonce instead; the payout is
 * signed again, at a fresh nonce, when the vault can pay it.
 */
async function releaseNonce(
  deps: PayoutProcessorDeps,
  payout: PayoutRow,
  refusal: string,
): Promise<PayoutRow> {
  const market = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  const previous = {
    maxFeePerGas: payout.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: payout.maxPriorityFeePerGas ?? 0n,
  };
  const fees = replacementFees(previous, market, deps.maxFeePerGas) ?? market;
  deps.log?.error(
    { payoutId: payout.id, nonce: String(payout.nonce), refusal },
    'ALERT: vault short of funds for a signed payout; freeing its nonce with a 0-value self-transfer',
  );
  const releasing = await signNonceRelease(
    deps,
    payout,
    fees,
    `vault short of funds (${refusal}); freeing nonce ${payout.nonce} with a 0-value self-transfer`,
  );
  if (releasing.cancelRawTx && isHex(releasing.cancelRawTx)) await sendRaw(deps.chain, releasing.cancelRawTx);
  return releasing;
}

/**
 * Job only. A broadcast payout unmined for `replaceAfterMs` is replaced at the same nonce with fees
 * ≥ +12.5%; a signed one the node refused for its fee is signed again at today's fees. Both stay
 * under the ceiling: at the ceiling the transaction waits.
 */
async function maybeReprice(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<PayoutRow> {
  const previous = {
    maxFeePerGas: payout.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: payout.maxPriorityFeePerGas ?? 0n,
  };
  if (payout.status === 'signed' && payout.lastError?.startsWith(FEE_REFUSED_PREFIX)) {
    const market = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
    if (market.maxFeePerGas <= previous.maxFeePerGas) return payout;
    return resignPayout(deps, payout, market);
  }
  const now = deps.now?.() ?? Date.now();
  if (payout.status !== 'broadcast' || !payout.broadcastAt) return payout;
  if (now - payout.broadcastAt.getTime() < (deps.replaceAfterMs ?? 60_000)) return payout;
  const market = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  const fees = replacementFees(previous, market, deps.maxFeePerGas);
  if (!fees) {
    deps.log?.warn({ payoutId: payout.id }, 'payout unmined at the fee ceiling; it waits');
    return payout;
  }
  return resignPayout(deps, payout, fees);
}

async function markBroadcast(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<PayoutRow> {
  if (payout.status === 'broadcast' && payout.broadcastAt && !payout.lastError) return payout;
  // A replacement's clock starts when it is sent; a re-send of the same bytes keeps it.
  const broadcastAt =
    payout.status === 'signed' || !payout.broadcastAt
      ? new Date(deps.now?.() ?? Date.now())
      : payout.broadcastAt;
  const updated = await markPayoutBroadcast(deps.db, payout.id, broadcastAt);
  // A re-send of bytes already out keeps the payout broadcast: no new state.
  if (updated && payout.status === 'signed') deps.metrics?.countPayout('broadcast');
  return updated ?? loadPayout(deps.db, payout.id);
}

/**
 * Final on chain: the payout is confirmed, its bets claimed and its refunds refunded, in one
 * transaction with the realtime event.
 */
async function confirmIfFinal(deps: PayoutProcessorDeps, payout: PayoutRow, receipt: TransactionReceipt) {
  if (!(await isFinal(deps.chain, deps.confirmations, receipt))) return payout;
  const { row, confirmedNow } = await deps.db.transaction(async (tx) => {
    const confirmed = await confirmPayout(tx, payout.id, receipt.transactionHash);
    // Confirmed by someone else meanwhile. (Read through tx: on PGlite, db would wait for this tx.)
    if (!confirmed) return { row: await loadPayout(tx, payout.id), confirmedNow: false };
    await publish(tx, { topic: 'payouts', address: confirmed.toAddress });
    await publish(tx, { topic: 'vault' });
    return { row: confirmed, confirmedNow: true };
  });
  if (confirmedNow) deps.metrics?.countPayout('confirmed');
  return row;
}
