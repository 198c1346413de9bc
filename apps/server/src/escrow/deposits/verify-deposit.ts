import { type DepositTerms, depositArgs } from '@pm/escrow/deposit-terms';
import { marketKey } from '@pm/escrow/market-key';
import type { Hash, Hex } from 'viem';
import { type FinalityReads, watchFinalReceipt, watchTransaction } from '../../chain/finality.ts';
import { AppError } from '../../errors/app-error.ts';
import { type DepositEvent, decodeDeposits } from './deposit-events.ts';

// docs/architecture.md "Payment verification", deposits (docs/decisions/026; oracle rounds pay this
// way): a bet is a `deposit(...)` call into the escrow, and it counts only if the final, canonical
// receipt holds a `Deposited` event of our escrow that states exactly what the request claims. The
// event, not the transaction, says who deposited what: a smart account or a batch deposits from
// inside a call.

export type DepositVerifierDeps = FinalityReads & {
  chainId: number;
  escrowAddress: `0x${string}`;
  /** How long we wait ourselves for the transaction to appear and become final. */
  waitMs: number;
};

export type DepositClaim = {
  txHash: Hash;
  /** The bettor the request names: whoever called `deposit` (an EOA, a Safe, an EIP-7702 account). */
  from: `0x${string}`;
  amountWei: bigint;
  /** What the request says it paid for: the key and codes the event must carry follow from it. */
  terms: DepositTerms;
  /**
   * Stake ids of this transaction already recorded. A batch may hold identical deposits: each claim
   * takes one not taken yet, so two claims of one batch get two stakes (the caller records stake ids
   * uniquely, which settles two claims racing for the same one).
   */
  taken?: readonly bigint[];
  /**
   * Only this stake may be the claim's deposit: reconciliation records a deposit from its own event,
   * so the bet is that stake and no identical one of the same batch.
   */
  stakeId?: bigint;
};

export type VerifyDepositResult =
  | { status: 'verified'; deposit: DepositEvent }
  | { status: 'pending'; txHash: Hash };

export async function verifyDeposit(
  deps: DepositVerifierDeps,
  claim: DepositClaim,
): Promise<VerifyDepositResult> {
  // Before any read: terms that cannot be a deposit are the caller's error, thrown as depositArgs does.
  const expected = expectedEvent(claim.terms);
  const deadline = Date.now() + deps.waitMs;
  const tx = await watchTransaction(deps, claim.txHash, deadline);
  if (!tx) throw new AppError('TX_NOT_FOUND');
  // A transaction without a chain id (pre-EIP-155) could be replayed from another chain.
  if (tx.chainId !== deps.chainId) throw new AppError('WRONG_CHAIN');

  const mined = await watchFinalReceipt(deps, claim.txHash, deadline);
  // Seen but not mined and final within our wait. The events are read from the final receipt only,
  // so a claim that does not match is refused once final, not on a block that may still go.
  if (!mined) return { status: 'pending', txHash: claim.txHash };
  if (mined.receipt.status !== 'success') throw new AppError('TX_FAILED');
  const deposits = decodeDeposits(mined.receipt.logs, deps.escrowAddress, () => mined.blockTime);
  return { status: 'verified', deposit: matchDeposit(deposits, claim, expected) };
}

type ExpectedEvent = { key: Hex; kind: number; side: number; terms: Hex };

function expectedEvent(terms: DepositTerms): ExpectedEvent {
  const [market, closesAt, kind, side, termsHash] = depositArgs(terms);
  return { key: marketKey(market, closesAt), kind, side, terms: termsHash };
}

/**
 * The one deposit of the transaction this claim is: today's refusals, in today's order (recipient,
 * sender, amount, intent), each narrowing the deposits a batch may hold; then the first match, in
 * log order, that is not taken yet.
 */
function matchDeposit(deposits: DepositEvent[], claim: DepositClaim, expected: ExpectedEvent): DepositEvent {
  if (deposits.length === 0) {
    throw new AppError('WRONG_RECIPIENT', 'The transaction holds no deposit into the escrow contract.');
  }
  const from = claim.from.toLowerCase();
  const owned = deposits.filter((deposit) => deposit.owner.toLowerCase() === from);
  if (owned.length === 0) throw new AppError('WRONG_SENDER');
  const paid = owned.filter((deposit) => deposit.amountWei === claim.amountWei);
  if (paid.length === 0) throw new AppError('WRONG_AMOUNT');
  const meant = paid.filter(
    (deposit) =>
      deposit.key === expected.key &&
      deposit.kind === expected.kind &&
      deposit.side === expected.side &&
      deposit.terms === expected.terms,
  );
  if (meant.length === 0) throw new AppError('INTENT_MISMATCH');
  const taken = new Set(claim.taken ?? []);
  const free = meant.find(
    (deposit) =>
      !taken.has(deposit.stakeId) && (claim.stakeId === undefined || deposit.stakeId === claim.stakeId),
  );
  if (!free) throw new AppError('TX_ALREADY_USED');
  return free;
}
