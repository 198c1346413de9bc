import { normalizeAddress } from '@pm/core/address';
import { type Fees, maxTransferCost, payoutGasLimit, TRANSFER_GAS } from '@pm/core/vault-transfers';
import { keccak256 } from 'viem';
import { describeError } from '../errors/describe-error.ts';
import { failPayout } from './fail-payout.ts';
import { cappedMarketFees, isExecutionReverted } from './payout-chain.ts';
import { type PayoutProcessorDeps, SimulatedCrash } from './payout-processor-deps.ts';
import {
  lockNextVaultNonce,
  lockPayout,
  type PayoutRow,
  recordPayoutError,
  storeNonceRelease,
  storeSignedPayout,
  sumOwedInFlight,
} from './payouts-repository.ts';

/**
 * Signs a created payout at the next vault nonce, after three checks: the transfer's gas is estimated
 * for this recipient (a reverting estimate fails the payout: it could never be paid), fees are the
 * market's under the ceiling, and the vault can cover it beside every payout already in flight (else
 * it waits unsigned, holding no nonce, and an alert is logged: later payouts still go out).
 * Raw bytes and hash are stored before anything is sent.
 */
export async function signNewPayout(deps: PayoutProcessorDeps, payout: PayoutRow): Promise<PayoutRow> {
  const to = normalizeAddress(payout.toAddress);
  const fees = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  // Checked before estimating too: a node refuses to estimate a value the sender does not have.
  const short = await vaultShortfall(deps, payout, maxTransferCost(TRANSFER_GAS, fees));
  if (short) return short;
  let estimate: bigint;
  try {
    estimate = await deps.chain.estimateGas({ account: deps.signer.address, to, value: payout.amount });
  } catch (error) {
    if (!isExecutionReverted(error)) throw error;
    const reason = `a transfer to ${to} reverts (${describeError(error)}): the address cannot receive BNB this way`;
    deps.log?.warn({ payoutId: payout.id, to, reason }, 'payout failed');
    return failPayout(deps.db, payout, reason, deps.metrics);
  }
  const gasLimit = payoutGasLimit(estimate);
  const shortWithGas = await vaultShortfall(deps, payout, maxTransferCost(gasLimit, fees));
  if (shortWithGas) return shortWithGas;
  const chainPendingNonce = BigInt(
    await deps.chain.getTransactionCount({ address: deps.signer.address, blockTag: 'pending' }),
  );
  const { row: signed, signedNow } = await deps.db.transaction(async (tx) => {
    const next = await lockNextVaultNonce(tx, {
      chainId: payout.chainId,
      vaultAddress: deps.signer.address,
      chainPendingNonce,
    });
    const locked = await lockPayout(tx, payout.id);
    if (!locked) throw new Error(`payout ${payout.id} vanished`);
    // Someone else signed it meanwhile: use theirs.
    if (locked.status !== 'created') return { row: locked, signedNow: false };
    // A row created before migration 0004 was given its nonce at creation: keep it, or it would
    // leave a gap before the nonces assigned after it.
    const nonce = locked.nonce ?? next;
    const rawTx = await signTransfer(deps, { to, value: locked.amount, nonce, gas: gasLimit, fees });
    const txHash = keccak256(rawTx);
    const updated = await storeSignedPayout(tx, locked.id, {
      nonce,
      gasLimit,
      rawTx,
      txHash,
      txHashes: [...locked.txHashes, txHash],
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    if (!updated) throw new Error(`payout ${payout.id} vanished`);
    return { row: updated, signedNow: true };
  });
  if (signedNow) deps.metrics?.countPayout('signed');
  if (deps.crashAfter === 'signed') throw new SimulatedCrash('after signing');
  return signed;
}

/**
 * Signs the payout again at its own nonce with new fees (a replacement). Every hash is kept: any of
 * them mining settles the payout. The row is locked, so two instances never sign two replacements.
 */
export async function resignPayout(
  deps: PayoutProcessorDeps,
  payout: PayoutRow,
  fees: Fees,
): Promise<PayoutRow> {
  const { row, signedNow } = await deps.db.transaction(async (tx) => {
    const locked = await lockPayout(tx, payout.id);
    if (!locked) throw new Error(`payout ${payout.id} vanished`);
    if (locked.status !== payout.status || locked.txHash !== payout.txHash || locked.nonce === null)
      return { row: locked, signedNow: false };
    const rawTx = await signTransfer(deps, {
      to: normalizeAddress(locked.toAddress),
      value: locked.amount,
      nonce: locked.nonce,
      gas: locked.gasLimit ?? TRANSFER_GAS,
      fees,
    });
    const txHash = keccak256(rawTx);
    const updated = await storeSignedPayout(tx, locked.id, {
      rawTx,
      txHash,
      txHashes: [...locked.txHashes, txHash],
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return updated ? { row: updated, signedNow: true } : { row: locked, signedNow: false };
  });
  // A replacement: signed again at the same nonce.
  if (signedNow) deps.metrics?.countPayout('signed');
  return row;
}

/**
 * Signs a 0-value transfer from the vault to itself at the payout's nonce and stores it: sent
 * instead of the payout, it frees the nonce so later payouts are not stuck behind one the vault
 * cannot fund. Once the chain's final nonce is past it, the payout is signed again at a fresh nonce.
 */
export async function signNonceRelease(
  deps: PayoutProcessorDeps,
  payout: PayoutRow,
  fees: Fees,
  reason: string,
): Promise<PayoutRow> {
  if (payout.nonce === null) return payout;
  const rawTx = await signTransfer(deps, {
    to: deps.signer.address,
    value: 0n,
    nonce: payout.nonce,
    gas: TRANSFER_GAS,
    fees,
  });
  const updated = await storeNonceRelease(deps.db, payout.id, {
    cancelRawTx: rawTx,
    cancelTxHash: keccak256(rawTx),
    reason,
  });
  return updated ?? payout;
}

export async function recordError(
  deps: PayoutProcessorDeps,
  id: number,
  message: string,
): Promise<PayoutRow> {
  const updated = await recordPayoutError(deps.db, id, message);
  if (!updated) throw new Error(`payout ${id} vanished`);
  return updated;
}

function signTransfer(
  deps: PayoutProcessorDeps,
  input: { to: `0x${string}`; value: bigint; nonce: bigint; gas: bigint; fees: Fees },
): Promise<`0x${string}`> {
  return deps.signer.wallet.signTransaction({
    account: deps.signer.account,
    chain: deps.signer.wallet.chain,
    to: input.to,
    value: input.value,
    nonce: Number(input.nonce),
    gas: input.gas,
    type: 'eip1559',
    maxFeePerGas: input.fees.maxFeePerGas,
    maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas,
  });
}

/**
 * Null when the vault can pay this payout (value + gas) beside every payout in flight; else the
 * payout with the shortfall recorded, and an alert in the log. Nothing is signed that cannot be paid.
 */
async function vaultShortfall(
  deps: PayoutProcessorDeps,
  payout: PayoutRow,
  gasCost: bigint,
): Promise<PayoutRow | null> {
  const need = payout.amount + gasCost;
  const balance = await deps.chain.getBalance({ address: deps.signer.address });
  deps.metrics?.recordVaultBalance(balance);
  const inFlight = await sumOwedInFlight(deps.db, deps.signer.address);
  if (balance - inFlight >= need) return null;
  deps.log?.error(
    { payoutId: payout.id, balance: String(balance), inFlight: String(inFlight), need: String(need) },
    'ALERT: the vault cannot cover a payout; it waits unsigned until the vault is funded',
  );
  return recordError(
    deps,
    payout.id,
    `vault short of funds: balance ${balance} wei, ${inFlight} wei owed by payouts in flight, this one needs ${need} wei; waiting for funds`,
  );
}
