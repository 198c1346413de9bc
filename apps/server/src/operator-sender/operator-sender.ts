import { type Fees, replacementFees } from '@pm/core/operator-fees';
import { isHex, type TransactionReceipt } from 'viem';
import { receiptStanding } from '../chain/finality.ts';
import type { OperatorTxStatus } from '../db/schema.ts';
import { describeError } from '../errors/describe-error.ts';
import { isTransientError } from '../errors/transient-error.ts';
import type { Job } from '../jobs/job-runner.ts';
import { operatorGasLimit } from './operator-action.ts';
import {
  cappedMarketFees,
  findKnownTransaction,
  findReceipts,
  isExecutionReverted,
  readFinalNonce,
  sendRaw,
} from './operator-chain.ts';
import { actionOf, nowOf, type OperatorSenderDeps, senderOf } from './operator-sender-deps.ts';
import {
  type Expected,
  findOperatorTx,
  listHeldNonces,
  listOpenOperatorTxIds,
  listOpenOperatorTxs,
  OPEN_OPERATOR_TX_STATUSES,
  type OperatorTxRow,
  updateOperatorTx,
} from './operator-transactions-repository.ts';
import { describeRevert } from './revert-reason.ts';
import { lowestFreeNonce, signQueued, signReplacement } from './sign-operator-tx.ts';
import { submitOperatorAction } from './submit-operator-action.ts';

// docs/architecture.md "Operator transactions", decision 026. An action is a row first; it takes a
// nonce when it is signed (under the lane's lock), its raw bytes and hash are stored before it is
// sent, and it is never signed at another nonce while a transaction of it can still mine (a lagging
// node never makes a second payment). A broadcast refused for a reason we do not know gives its nonce
// back instead of holding every later transaction behind it; a receipt counts only once final and in
// the canonical block; every gas limit is an estimate capped by the action's own cap
// (docs/security.md "Operator transactions").

/** Broadcasts refused for a reason we do not know before the action fails: each gave its nonce back. */
export const MAX_UNKNOWN_REFUSALS = 3;

const NONCE_TOO_HIGH = /nonce too high|nonce gap/i;

/** A filler's gas cap: a 0-value transfer to the sender itself (21,000; some nodes estimate 21,001). */
const FILLER_GAS_CAP = 30_000n;

export type OperatorStepSummary = { advanced: number; failed: number };

/**
 * One step of the lane: every open action of this key, those holding a nonce by nonce, then queued
 * ones oldest first. One action's failure is stored on its row and logged; the rest go on. Then a
 * nonce left free below transactions in flight, with nothing queued to take it, gets a filler.
 */
export async function processOperatorTransactions(deps: OperatorSenderDeps): Promise<OperatorStepSummary> {
  const ids = await listOpenOperatorTxIds(deps.db, deps.chainId, senderOf(deps));
  const summary: OperatorStepSummary = { advanced: 0, failed: 0 };
  for (const id of ids) {
    try {
      await advanceOperatorTx(deps, id);
      summary.advanced += 1;
    } catch (error) {
      summary.failed += 1;
      deps.log?.error(
        { err: error, operatorTxId: id },
        'operator transaction step failed; retried next step',
      );
      await recordError(deps, id, describeError(error)).catch(() => undefined);
    }
  }
  try {
    await fillNonceGap(deps);
  } catch (error) {
    deps.log?.error({ err: error }, 'operator nonce gap check failed; retried next step');
  }
  return summary;
}

/** The sender's job: safe on every instance at once (the lane's lock, and each write names the state it expects). */
export function createOperatorTransactionsJob(deps: OperatorSenderDeps, intervalMs = 2_000): Job {
  return {
    name: 'operator-transactions',
    intervalMs,
    async run() {
      await processOperatorTransactions(deps);
    },
  };
}

/** Moves one action as far as it can go now; answers it afterwards. */
export async function advanceOperatorTx(deps: OperatorSenderDeps, id: number): Promise<OperatorTxRow> {
  const row = await load(deps, id);
  if (row.status === 'queued') {
    const started = await startQueued(deps, row);
    return started.status === 'signed' ? send(deps, started) : started;
  }
  if (row.status === 'signed' || row.status === 'sent') return advanceSigned(deps, row);
  return row;
}

/**
 * A queued action: an earlier transaction of it (its nonce was given back, or taken) is looked for
 * first; then the call is simulated at the latest block (a revert ends it: skipped when the
 * classifier says its effect already holds, else failed), its gas estimated and capped, and it is
 * signed at the lane's next nonce.
 */
async function startQueued(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow> {
  if (row.txHashes.length > 0) {
    const mined = await settleReceipts(deps, row);
    if (mined) return mined;
    const known = await findKnownTransaction(deps.chain, row.txHashes);
    if (known) {
      return recordError(
        deps,
        row.id,
        `an earlier transaction of this action (${known.hash}) is known to the node: not signed again while it can mine`,
      );
    }
  }
  const sender = senderOf(deps);
  // Simulated and estimated at the fees it is signed with: a call run with a zero gas price and base
  // fee is a call that code keyed on `tx.gasprice` or `block.basefee` can make cheap, then burn its
  // gas when it is sent for real.
  const fees = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  const call = {
    account: sender,
    to: row.toAddress as `0x${string}`,
    data: row.data as `0x${string}`,
    value: row.value,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  };
  try {
    await deps.chain.call({ ...call, blockTag: 'latest' });
  } catch (error) {
    if (!isExecutionReverted(error)) throw error;
    return endByRevert(deps, row, error, 'its simulation');
  }
  let estimate: bigint;
  try {
    estimate = await deps.chain.estimateGas(call);
  } catch (error) {
    if (!isExecutionReverted(error)) throw error;
    return endByRevert(deps, row, error, 'its gas estimate');
  }
  const gasLimit = operatorGasLimit(estimate, row.gasCap, row.signAtCap);
  if (gasLimit === null) {
    return finish(deps, row, 'failed', {
      reason: `its gas estimate (${estimate}) is above its cap (${row.gasCap}): not sent`,
      expected: ['queued'],
    });
  }
  const chainPendingNonce = BigInt(
    await deps.chain.getTransactionCount({ address: sender, blockTag: 'pending' }),
  );
  const signed = await signQueued(deps, row, { gasLimit, fees, chainPendingNonce });
  if (!signed) return load(deps, row.id);
  deps.metrics?.countOperatorTransaction('signed');
  deps.log?.info(
    {
      operatorTxId: row.id,
      key: row.key,
      nonce: String(signed.nonce),
      txHash: signed.txHash,
      gasLimit: String(gasLimit),
    },
    'operator transaction signed',
  );
  return signed;
}

/** A signed or sent action: mined and final, its nonce used by another transaction, or still out. */
async function advanceSigned(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow> {
  // Read before the receipts: a nonce final before we look cannot hide a receipt of ours.
  const finalNonce = await readFinalNonce(deps.chain, senderOf(deps), deps.confirmations);
  const mined = await settleReceipts(deps, row);
  if (mined) return mined;
  if (row.nonce !== null && finalNonce > row.nonce) return nonceUsedElsewhere(deps, row);
  if (row.status === 'signed') return send(deps, row);
  const now = nowOf(deps);
  const resendDue = !row.sentAt || now - row.sentAt.getTime() >= deps.resendAfterMs;
  if (row.signedAt && now - row.signedAt.getTime() >= deps.replaceAfterMs) {
    const replaced = await replace(deps, row);
    if (replaced) return replaced;
    // At the fee ceiling: it waits as it is, and is still sent again in case a node dropped it.
    const waiting = resendDue ? await send(deps, row) : row;
    return recordError(
      deps,
      waiting.id,
      'unmined at the fee ceiling (PAYOUT_MAX_FEE_PER_GAS_GWEI): it waits',
    );
  }
  return resendDue ? send(deps, row) : row;
}

/**
 * Looks for a receipt of any of the action's hashes. Final and canonical: the action ends by it
 * (success: confirmed, or the cancel's outcome; reverted: failed, never retried). Mined but not
 * final: it waits (answered as is). A receipt whose block the chain no longer has counts for
 * nothing: the transaction is sent again once its resend time comes. Null when none settles it.
 */
async function settleReceipts(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow | null> {
  const receipts = await findReceipts(deps.chain, row.txHashes);
  let minedNotFinal = false;
  for (const receipt of receipts) {
    const standing = await receiptStanding(deps.chain, deps.confirmations, receipt);
    if (standing === 'final') return settleFinal(deps, row, receipt);
    if (standing === 'pending') minedNotFinal = true;
    else
      deps.log?.warn(
        { operatorTxId: row.id, txHash: receipt.transactionHash, blockNumber: String(receipt.blockNumber) },
        'operator transaction receipt names a block that is not canonical; it counts for nothing',
      );
  }
  return minedNotFinal ? row : null;
}

async function settleFinal(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  receipt: TransactionReceipt,
): Promise<OperatorTxRow> {
  const hash = receipt.transactionHash;
  // A queued row's receipt is of an earlier nonce, given back since: the transaction names it.
  const nonce = row.nonce ?? (await findKnownTransaction(deps.chain, [hash]))?.nonce ?? null;
  const mined = {
    txHash: hash,
    nonce,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    gasUsed: receipt.gasUsed,
  };
  if (receipt.status !== 'success') {
    return finish(deps, row, 'failed', {
      reason: `transaction ${hash} reverted on chain in block ${receipt.blockNumber}`,
      mined,
    });
  }
  if (row.cancelHashes.includes(hash)) {
    return finish(deps, row, row.cancelOutcome === 'failed' ? 'failed' : 'skipped', {
      reason: row.cancelReason ?? `cancelled by ${hash}`,
      mined,
    });
  }
  return finish(deps, row, 'confirmed', { reason: null, mined });
}

/**
 * The chain's final nonce is past ours and no receipt of ours answers. Our transaction may be mined
 * with a receipt the node does not serve yet (a lagging or inconsistent node): if the node knows it
 * as mined, we wait. Else, seen again `replaceAfterMs` later, another transaction used the nonce:
 * none of ours can mine any more, so the action is queued again, for a fresh simulation (its effect
 * may hold by now) and a fresh nonce.
 */
async function nonceUsedElsewhere(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow> {
  const known = await findKnownTransaction(deps.chain, row.txHashes);
  if (known?.mined) {
    return recordError(deps, row.id, `${known.hash} is mined, its receipt not served yet: waiting for it`);
  }
  const now = nowOf(deps);
  const reason = `nonce ${row.nonce} is final on chain without any transaction of this action`;
  if (!row.nonceTakenSeenAt) {
    return (
      (await update(
        deps,
        row,
        { status: ['signed', 'sent'], txHash: row.txHash },
        {
          nonceTakenSeenAt: new Date(now),
          lastError: `${reason}; looked at again before it is signed anew`,
        },
      )) ?? load(deps, row.id)
    );
  }
  if (now - row.nonceTakenSeenAt.getTime() < deps.replaceAfterMs) return row;
  const requeued = await update(
    deps,
    row,
    { status: ['signed', 'sent'], txHash: row.txHash },
    {
      status: 'queued',
      nonce: null,
      rawTx: null,
      txHash: null,
      signedAt: null,
      sentAt: null,
      nonceTakenSeenAt: null,
      lastError: `${reason}: queued again for a fresh nonce`,
    },
  );
  if (!requeued) return load(deps, row.id);
  deps.metrics?.countOperatorTransaction('queued');
  deps.log?.warn(
    { operatorTxId: row.id, nonce: String(row.nonce) },
    'operator nonce used by another transaction; queued again',
  );
  return requeued;
}

/** Sends the stored raw transaction and reads the node's answer. */
async function send(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow> {
  const raw = row.rawTx;
  if (!raw || !isHex(raw)) throw new Error(`operator transaction ${row.id} has no signed transaction`);
  const outcome = await sendRaw(deps.chain, raw);
  if (outcome.kind === 'sent') return markSent(deps, row);
  // A passing fault: the node may or may not have it. The same bytes go again next step.
  if (isTransientError(outcome.error)) {
    deps.metrics?.countOperatorRefusal('transient');
    return recordError(deps, row.id, `broadcast: ${outcome.message}; sent again next step`);
  }
  switch (outcome.kind) {
    case 'nonce-too-low':
      deps.metrics?.countOperatorRefusal('nonce-too-low');
      return nonceTooLow(deps, row, outcome.message);
    case 'fee-refused':
      deps.metrics?.countOperatorRefusal('fee');
      return repriceRefused(deps, row, outcome.message);
    case 'insufficient-funds':
      deps.metrics?.countOperatorRefusal('funds');
      deps.log?.error(
        { operatorTxId: row.id, sender: senderOf(deps), refusal: outcome.message },
        'ALERT: the operator key cannot pay its gas; its transactions wait until it is funded',
      );
      return recordError(
        deps,
        row.id,
        `broadcast: ${outcome.message}; waiting for the operator key's gas money`,
      );
    case 'refused':
      // A lower nonce is missing (nodes that keep no queue say so): ours is right, it waits for it.
      if (NONCE_TOO_HIGH.test(outcome.message)) {
        deps.metrics?.countOperatorRefusal('nonce-too-high');
        return recordError(deps, row.id, `broadcast: ${outcome.message}; waiting for the nonces below it`);
      }
      deps.metrics?.countOperatorRefusal('unknown');
      return refusedForUnknownReason(deps, row, outcome.message);
  }
}

/**
 * "nonce too low": the chain is read to learn whose transaction has the nonce. One of ours, known
 * to the node (pending or mined): ours is out. The nonce final without ours: another transaction
 * took it. Else (used, not final yet) the next step looks again.
 */
async function nonceTooLow(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  message: string,
): Promise<OperatorTxRow> {
  const known = await findKnownTransaction(deps.chain, row.txHashes);
  if (known) return markSent(deps, row);
  const finalNonce = await readFinalNonce(deps.chain, senderOf(deps), deps.confirmations);
  if (row.nonce !== null && finalNonce > row.nonce) return nonceUsedElsewhere(deps, row);
  return recordError(
    deps,
    row.id,
    `broadcast: ${message}; the nonce is used, not final yet: looked at again next step`,
  );
}

/**
 * A node refused the broadcast and we do not know why. If it holds a transaction of ours at this
 * nonce anyway, the nonce is ours and stays. Else the nonce is given back (the action is queued
 * again, a fresh nonce next step) so that every later transaction does not wait behind it; after
 * MAX_UNKNOWN_REFUSALS the action fails, its last refusal recorded.
 */
async function refusedForUnknownReason(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  message: string,
): Promise<OperatorTxRow> {
  const known = await findKnownTransaction(deps.chain, row.txHashes);
  if (known) {
    const marked = await markSent(deps, row);
    return recordError(
      deps,
      marked.id,
      `broadcast: ${message}; ${known.hash} of this action is known to the node: waiting for it`,
    );
  }
  const refusals = row.refusals + 1;
  const giveUp = refusals >= MAX_UNKNOWN_REFUSALS;
  const reason = `broadcast refused (${message}); nonce ${row.nonce} given back`;
  const released = await update(
    deps,
    row,
    { status: ['signed', 'sent'], txHash: row.txHash },
    {
      status: giveUp ? 'failed' : 'queued',
      nonce: null,
      rawTx: null,
      txHash: null,
      signedAt: null,
      sentAt: null,
      nonceTakenSeenAt: null,
      refusals,
      doneAt: giveUp ? new Date(nowOf(deps)) : null,
      lastError: giveUp
        ? `${reason}; refused ${refusals} times: failed`
        : `${reason}; signed again at a fresh nonce`,
    },
  );
  if (!released) return load(deps, row.id);
  deps.metrics?.countOperatorReleasedNonce();
  deps.metrics?.countOperatorTransaction(giveUp ? 'failed' : 'queued');
  deps.log?.error(
    { operatorTxId: row.id, key: row.key, nonce: String(row.nonce), refusals, refusal: message },
    giveUp
      ? 'operator broadcast refused again: nonce given back and the action failed'
      : 'operator broadcast refused for an unknown reason: nonce given back',
  );
  return released;
}

/** A node refused the transaction for its fee: signed again at today's fees (≥ +12.5 %) under the ceiling. */
async function repriceRefused(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  message: string,
): Promise<OperatorTxRow> {
  const fees = await nextFees(deps, row);
  if (!fees)
    return recordError(
      deps,
      row.id,
      `broadcast refused for its fee (${message}); at the fee ceiling it waits`,
    );
  const resigned = await signReplacement(deps, row, fees, null);
  if (!resigned) return load(deps, row.id);
  deps.metrics?.countOperatorReplacement('fee');
  deps.metrics?.countOperatorTransaction('signed');
  return recordError(
    deps,
    resigned.id,
    `broadcast refused for its fee (${message}); signed again with higher fees`,
  );
}

/**
 * Not mined `replaceAfterMs` after it was signed: simulated again. If the call now reverts, a 0-value
 * transfer to the sender itself replaces it (its effect already holds: skipped; else it would revert:
 * failed, with the reason); otherwise the same call with fees ≥ +12.5 %. Null at the fee ceiling.
 */
async function replace(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow | null> {
  const cancelling = row.txHash !== null && row.cancelHashes.includes(row.txHash);
  let cancel: { outcome: 'skipped' | 'failed'; reason: string } | null = null;
  if (!cancelling) {
    try {
      await deps.chain.call({
        account: senderOf(deps),
        to: row.toAddress as `0x${string}`,
        data: row.data as `0x${string}`,
        value: row.value,
        blockTag: 'latest',
      });
    } catch (error) {
      if (!isExecutionReverted(error)) throw error;
      const done = deps.classifyRevert(error, actionOf(row)) === 'done';
      const reason = `its simulation now reverts with ${describeRevert(error, deps.errorAbi)}`;
      cancel = done
        ? {
            outcome: 'skipped',
            reason: `${reason}: its effect already holds; cancelled at nonce ${row.nonce}`,
          }
        : { outcome: 'failed', reason: `${reason}; cancelled at nonce ${row.nonce}` };
    }
  }
  const fees = await nextFees(deps, row);
  if (!fees) {
    deps.log?.warn({ operatorTxId: row.id }, 'operator transaction unmined at the fee ceiling; it waits');
    return null;
  }
  const resigned = await signReplacement(deps, row, fees, cancel);
  if (!resigned) return load(deps, row.id);
  deps.metrics?.countOperatorReplacement(cancel || cancelling ? 'cancel' : 'fee');
  deps.metrics?.countOperatorTransaction('signed');
  deps.log?.warn(
    {
      operatorTxId: row.id,
      nonce: String(row.nonce),
      txHash: resigned.txHash,
      cancel: Boolean(cancel || cancelling),
    },
    cancel || cancelling
      ? 'operator transaction cancelled at its nonce'
      : 'operator transaction replaced with higher fees',
  );
  return send(deps, resigned);
}

async function nextFees(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<Fees | null> {
  const market = await cappedMarketFees(deps.chain, deps.maxFeePerGas);
  const previous = {
    maxFeePerGas: row.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: row.maxPriorityFeePerGas ?? 0n,
  };
  return replacementFees(previous, market, deps.maxFeePerGas);
}

async function markSent(deps: OperatorSenderDeps, row: OperatorTxRow): Promise<OperatorTxRow> {
  const sent = await update(
    deps,
    row,
    { status: ['signed', 'sent'], txHash: row.txHash },
    {
      status: 'sent',
      sentAt: new Date(nowOf(deps)),
      // A node took it: its nonce was free, whatever an earlier look said.
      nonceTakenSeenAt: null,
      lastError: null,
    },
  );
  if (!sent) return load(deps, row.id);
  if (row.status === 'signed') {
    deps.metrics?.countOperatorTransaction('sent');
    deps.log?.info(
      { operatorTxId: row.id, nonce: String(row.nonce), txHash: row.txHash },
      'operator transaction sent',
    );
  }
  return sent;
}

/** A revert in simulation or estimate ends a queued action: skipped if its effect already holds, else failed. */
async function endByRevert(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  error: unknown,
  stage: string,
): Promise<OperatorTxRow> {
  const reason = `${stage} reverts with ${describeRevert(error, deps.errorAbi)}`;
  // Only while still queued: another step (a claim request and the job advance the same action) may
  // have signed and sent it since this one read it, and then its own transaction is what the
  // simulation ran into.
  const whileQueued = { expected: ['queued'] as const };
  if (deps.classifyRevert(error, actionOf(row)) === 'done')
    return finish(deps, row, 'skipped', { reason: `${reason}: its effect already holds`, ...whileQueued });
  return finish(deps, row, 'failed', { reason, ...whileQueued });
}

async function finish(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  status: 'confirmed' | 'skipped' | 'failed',
  input: {
    reason: string | null;
    mined?: { txHash: string; nonce: bigint | null; blockNumber: bigint; blockHash: string; gasUsed: bigint };
    /** The statuses the row may be in to end now (default: any open one). */
    expected?: readonly OperatorTxStatus[];
  },
): Promise<OperatorTxRow> {
  const ended = await update(
    deps,
    row,
    { status: [...(input.expected ?? OPEN_OPERATOR_TX_STATUSES)] },
    {
      status,
      lastError: input.reason,
      doneAt: new Date(nowOf(deps)),
      ...(input.mined
        ? {
            txHash: input.mined.txHash,
            nonce: input.mined.nonce,
            blockNumber: input.mined.blockNumber,
            blockHash: input.mined.blockHash,
            gasUsed: input.mined.gasUsed,
          }
        : {}),
    },
  );
  if (!ended) return load(deps, row.id);
  deps.metrics?.countOperatorTransaction(status);
  const fields = { operatorTxId: row.id, key: row.key, txHash: ended.txHash, reason: input.reason };
  if (status === 'failed') deps.log?.warn(fields, 'operator transaction failed');
  else deps.log?.info(fields, `operator transaction ${status}`);
  return ended;
}

/**
 * A nonce left free below transactions in flight (given back after a refusal, its action failed
 * since) would hold them all: with nothing queued to take it, a 0-value transfer to the sender itself
 * is submitted, and takes it as the lowest free nonce.
 */
async function fillNonceGap(deps: OperatorSenderDeps): Promise<void> {
  const sender = senderOf(deps);
  const open = await listOpenOperatorTxs(deps.db, deps.chainId, sender);
  if (open.some((row) => row.status === 'queued')) return;
  const inFlight = open.flatMap((row) => (row.nonce === null ? [] : [row.nonce]));
  if (inFlight.length === 0) return;
  const highest = inFlight.reduce((a, b) => (a > b ? a : b));
  const pending = BigInt(await deps.chain.getTransactionCount({ address: sender, blockTag: 'pending' }));
  const free = lowestFreeNonce(pending, await listHeldNonces(deps.db, deps.chainId, sender, pending));
  if (free >= highest) return;
  deps.log?.warn(
    { sender, nonce: String(free) },
    'operator nonce free below transactions in flight; filling it',
  );
  await submitOperatorAction(deps, {
    key: `nonce-fill:${deps.chainId}:${sender}:${free}:${nowOf(deps)}`,
    to: sender,
    gasCap: FILLER_GAS_CAP,
  });
}

async function update(
  deps: OperatorSenderDeps,
  row: OperatorTxRow,
  expected: Expected,
  changes: Parameters<typeof updateOperatorTx>[3],
): Promise<OperatorTxRow | undefined> {
  return updateOperatorTx(deps.db, row.id, expected, changes);
}

async function recordError(deps: OperatorSenderDeps, id: number, message: string): Promise<OperatorTxRow> {
  const updated = await updateOperatorTx(
    deps.db,
    id,
    { status: OPEN_OPERATOR_TX_STATUSES },
    { lastError: message },
  );
  return updated ?? load(deps, id);
}

async function load(deps: OperatorSenderDeps, id: number): Promise<OperatorTxRow> {
  const row = await findOperatorTx(deps.db, id);
  if (!row) throw new Error(`operator transaction ${id} not found`);
  return row;
}
