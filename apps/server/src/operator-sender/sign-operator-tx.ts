import type { Fees } from '@pm/core/operator-fees';
import { keccak256 } from 'viem';
import { TRANSFER_GAS } from './operator-action.ts';
import { nowOf, type OperatorSenderDeps, senderOf } from './operator-sender-deps.ts';
import {
  listHeldNonces,
  lockLane,
  lockOperatorTx,
  type OperatorTxRow,
  updateOperatorTx,
} from './operator-transactions-repository.ts';

// Signing, always with the row locked and stored before anything is sent: a new action at the
// lane's next nonce, or a replacement (higher fees, or a cancel) at the nonce it already holds.

/**
 * The nonce for a new transaction: the lowest at or above the chain's pending count that no row of
 * the lane holds. With no gaps that is the later of the pending count and one past the highest
 * stored nonce; a nonce given back after a refused broadcast is the lowest free one, so it is used
 * again at once and later nonces never wait behind a hole. A lagging node's old pending count
 * changes nothing: every nonce our rows hold is skipped.
 */
export function lowestFreeNonce(chainPendingNonce: bigint, heldAscending: readonly bigint[]): bigint {
  let nonce = chainPendingNonce;
  for (const held of heldAscending) {
    if (held === nonce) nonce += 1n;
    else if (held > nonce) break;
  }
  return nonce;
}

/**
 * Signs a queued action at the lane's next nonce, under the lane's lock (every instance sharing the
 * key takes it), and stores nonce, raw bytes and hash before anything is sent. Null when another
 * instance moved the row meanwhile: the caller reads it again.
 */
export async function signQueued(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  input: { gasLimit: bigint; fees: Fees; chainPendingNonce: bigint },
): Promise<OperatorTxRow | null> {
  const sender = senderOf(deps);
  return deps.db.transaction(async (tx) => {
    await lockLane(tx, deps.chainId, sender);
    const locked = await lockOperatorTx(tx, row.id);
    if (locked?.status !== 'queued') return null;
    const held = await listHeldNonces(tx, deps.chainId, sender, input.chainPendingNonce);
    const nonce = lowestFreeNonce(input.chainPendingNonce, held);
    const rawTx = await signCall(deps, {
      to: locked.toAddress as `0x${string}`,
      data: locked.data as `0x${string}`,
      value: locked.value,
      nonce,
      gas: input.gasLimit,
      fees: input.fees,
    });
    const txHash = keccak256(rawTx);
    const signed = await updateOperatorTx(
      tx,
      locked.id,
      { status: ['queued'] },
      {
        status: 'signed',
        nonce,
        gasLimit: input.gasLimit,
        rawTx,
        txHash,
        txHashes: [...locked.txHashes, txHash],
        maxFeePerGas: input.fees.maxFeePerGas,
        maxPriorityFeePerGas: input.fees.maxPriorityFeePerGas,
        signedAt: new Date(nowOf(deps)),
        sentAt: null,
        nonceTakenSeenAt: null,
        lastError: null,
        countAttempt: true,
      },
    );
    return signed ?? null;
  });
}

/**
 * Signs the row's transaction again at the nonce it holds with `fees` (each ≥ +12.5 % of the last,
 * so nodes take it as a replacement), or a 0-value transfer to the sender itself (a cancel: it uses
 * the nonce and does nothing) whose mining ends the action as `cancel.outcome`. Every hash is kept;
 * any of them mining settles the action. Null when the row moved meanwhile.
 */
export async function signReplacement(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  fees: Fees,
  cancel: { outcome: 'skipped' | 'failed'; reason: string } | null,
): Promise<OperatorTxRow | null> {
  return deps.db.transaction(async (tx) => {
    const locked = await lockOperatorTx(tx, row.id);
    if (!locked || locked.txHash !== row.txHash || locked.nonce === null || locked.gasLimit === null)
      return null;
    if (locked.status !== 'signed' && locked.status !== 'sent') return null;
    const cancelling =
      cancel !== null || (locked.txHash !== null && locked.cancelHashes.includes(locked.txHash));
    const rawTx = await signCall(
      deps,
      cancelling
        ? { to: senderOf(deps), data: '0x', value: 0n, nonce: locked.nonce, gas: TRANSFER_GAS, fees }
        : {
            to: locked.toAddress as `0x${string}`,
            data: locked.data as `0x${string}`,
            value: locked.value,
            nonce: locked.nonce,
            gas: locked.gasLimit,
            fees,
          },
    );
    const txHash = keccak256(rawTx);
    const signed = await updateOperatorTx(
      tx,
      locked.id,
      { status: ['signed', 'sent'], txHash: locked.txHash },
      {
        status: 'signed',
        rawTx,
        txHash,
        txHashes: [...locked.txHashes, txHash],
        cancelHashes: cancelling ? [...locked.cancelHashes, txHash] : locked.cancelHashes,
        cancelOutcome: cancel?.outcome ?? locked.cancelOutcome,
        cancelReason: cancel?.reason ?? locked.cancelReason,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        signedAt: new Date(nowOf(deps)),
        sentAt: null,
        lastError: cancel?.reason ?? null,
        countAttempt: true,
      },
    );
    return signed ?? null;
  });
}

function signCall(
  deps: OperatorSenderDeps,
  call: { to: `0x${string}`; data: `0x${string}`; value: bigint; nonce: bigint; gas: bigint; fees: Fees },
): Promise<`0x${string}`> {
  return deps.account.signTransaction({
    chainId: deps.chainId,
    type: 'eip1559',
    to: call.to,
    data: call.data,
    value: call.value,
    nonce: Number(call.nonce),
    gas: call.gas,
    maxFeePerGas: call.fees.maxFeePerGas,
    maxPriorityFeePerGas: call.fees.maxPriorityFeePerGas,
  });
}
