import { decodeIntent, intentText, type PaymentIntent, sameIntent } from '@pm/core/intent';
import type { Hash, Transaction } from 'viem';
import { AppError } from '../errors/app-error.ts';
import { type FinalityReads, watchFinalReceipt, watchTransaction } from './final-transaction.ts';

// docs/architecture.md "Payment verification": a payment counts only if every rule holds, checked against our
// own RPC. The transaction's data carries the payer's intent, so a stranger cannot post someone
// else's fresh hash for another market or side.

export type PaymentVerifierDeps = FinalityReads & {
  chainId: number;
  vaultAddress: `0x${string}`;
  /** How long we wait ourselves for the transaction to appear and become final. */
  waitMs: number;
};

export type PaymentClaim = {
  txHash: Hash;
  /** The address the request says paid. */
  from: `0x${string}`;
  amountWei: bigint;
  intent: PaymentIntent;
};

/** Which escrow stake a deposit is (decision 026): what its payment row and its bet keep. */
export type DepositStake = {
  stakeId: bigint;
  logIndex: number;
  marketKey: `0x${string}`;
  /** The receipt's `Disputed` count for this stake (a flag's bond sent a pending settlement back); else null. */
  disputes?: number | null;
};

export type VerifiedPayment = {
  txHash: Hash;
  from: `0x${string}`;
  amountWei: bigint;
  intentText: string;
  blockNumber: bigint;
  /** The block's own timestamp: what deadlines are compared with. */
  blockTime: Date;
  /** Set for an escrow deposit (one of the transaction's `Deposited` events); absent for a vault transfer. */
  deposit?: DepositStake;
};

export type VerifyResult =
  | { status: 'verified'; payment: VerifiedPayment }
  | { status: 'pending'; txHash: Hash };

export async function verifyPayment(deps: PaymentVerifierDeps, claim: PaymentClaim): Promise<VerifyResult> {
  const deadline = Date.now() + deps.waitMs;
  const tx = await watchTransaction(deps, claim.txHash, deadline);
  if (!tx) throw new AppError('TX_NOT_FOUND');
  checkTransaction(deps, claim, tx);

  const mined = await watchFinalReceipt(deps, claim.txHash, deadline);
  // Seen but not mined and final within our wait: valid so far, kept and recorded once final.
  if (!mined) return { status: 'pending', txHash: claim.txHash };
  // viem's waitForTransactionReceipt does not throw on revert: check the status ourselves.
  if (mined.receipt.status !== 'success') throw new AppError('TX_FAILED');
  return {
    status: 'verified',
    payment: {
      txHash: claim.txHash,
      from: claim.from,
      amountWei: tx.value,
      intentText: intentText(claim.intent),
      blockNumber: mined.receipt.blockNumber,
      blockTime: mined.blockTime,
    },
  };
}

function checkTransaction(deps: PaymentVerifierDeps, claim: PaymentClaim, tx: Transaction): void {
  // A transaction without a chain id (pre-EIP-155) could be replayed from another chain.
  if (tx.chainId !== deps.chainId) throw new AppError('WRONG_CHAIN');
  if (!tx.to || tx.to.toLowerCase() !== deps.vaultAddress.toLowerCase())
    throw new AppError('WRONG_RECIPIENT');
  if (tx.from.toLowerCase() !== claim.from.toLowerCase()) throw new AppError('WRONG_SENDER');
  if (tx.value !== claim.amountWei) throw new AppError('WRONG_AMOUNT');
  const intent = decodeIntent(tx.input);
  if (!intent || !sameIntent(intent, claim.intent)) throw new AppError('INTENT_MISMATCH');
}
