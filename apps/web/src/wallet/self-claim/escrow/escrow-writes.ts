import { type EscrowClaim, escrowClaimArg, escrowStakeRef } from '@pm/core/contract/payout-lists';
import { decodeRevert, formatRevert } from '@pm/escrow/decode-revert';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, getAddress, type Hex, isAddressEqual, parseEventLogs } from 'viem';
import type { Config } from 'wagmi';
import { simulateContract, waitForTransactionReceipt, writeContract } from 'wagmi/actions';
import { walletErrorMessage } from '#wallet/utils/wallet-error-message.ts';
import type { EscrowTarget } from './escrow-reads.ts';
import { readOpenStakes } from './escrow-reads.ts';

// The wallet's own transactions to the escrow, a round's or a market's claim (or refund) with the published
// proof and a credit's withdrawal. Loaded on the first click (viem's contract-write code is most of its
// weight), as the bet's payment is (wallet/utils/send-payment.ts).

/** What a mined call did: its hash, and what the contract credited instead of pushing (0: all pushed). */
export type EscrowSent = { hash: Hex; creditedWei: bigint };

type Send = { escrow: EscrowTarget; account: Address; onSubmitted: (hash: Hex) => void };

/** Sends `claim(Claim)` (or `refund(StakeRef)` for a voided round or market) from `account` and waits until mined. */
export async function sendSelfClaim(
  config: Config,
  request: Send & { claim: EscrowClaim },
): Promise<EscrowSent> {
  const { escrow, account, claim } = request;
  const owner = getAddress(claim.owner);
  const stake = { ...escrowStakeRef(claim), owner };
  const target = { address: escrow.address, chainId: escrow.chainId, account, abi: predictionEscrowAbi };
  let hash: Hex;
  if (claim.refund) {
    const call = { ...target, functionName: 'refund', args: [stake] } as const;
    await precheck(() => simulateContract(config, call));
    hash = await writeContract(config, call);
  } else {
    const payout = { ...escrowClaimArg(claim), stake };
    const call = { ...target, functionName: 'claim', args: [payout] } as const;
    await precheck(() => simulateContract(config, call));
    hash = await writeContract(config, call);
  }
  request.onSubmitted(hash);
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: escrow.chainId });
  if (receipt.status !== 'success') {
    // Mined but reverted: most likely another claim of the stake (the server's relay) landed first.
    const open = await readOpenStakes(config, escrow, [claim.stakeId]).catch(() => null);
    throw open && !open.has(claim.stakeId) ? new StakeSpentError() : new EscrowTxRevertedError(hash);
  }
  return { hash, creditedWei: credited(receipt.logs, escrow, owner) };
}

/** Sends `withdraw(to = account)`: the account's credits, to itself. */
export async function sendWithdraw(config: Config, request: Send): Promise<EscrowSent> {
  const { escrow, account } = request;
  const call = {
    address: escrow.address,
    chainId: escrow.chainId,
    account,
    abi: predictionEscrowAbi,
    functionName: 'withdraw',
    args: [account],
  } as const;
  await precheck(() => simulateContract(config, call));
  const hash = await writeContract(config, call);
  request.onSubmitted(hash);
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: escrow.chainId });
  if (receipt.status !== 'success') throw new EscrowTxRevertedError(hash);
  return { hash, creditedWei: 0n };
}

/**
 * Runs the call on the node first, so a stake already paid (or a credit already withdrawn) is said so
 * without asking the wallet to sign. Any other outcome of the simulation is left to the wallet's own
 * estimate: a node's latest block may lag the time a payout opens by a few seconds.
 */
async function precheck(simulate: () => Promise<unknown>): Promise<void> {
  try {
    await simulate();
  } catch (error) {
    const revert = decodeRevert(error)?.errorName;
    if (revert === 'StakeMismatch' || revert === 'NothingToWithdraw') throw error;
  }
}

/** The `Credited` amounts to `owner` in a receipt: a push the owner's address refused became a credit. */
function credited(logs: Parameters<typeof parseEventLogs>[0]['logs'], escrow: EscrowTarget, owner: Address) {
  return parseEventLogs({ abi: predictionEscrowAbi, logs, eventName: 'Credited' })
    .filter((log) => isAddressEqual(log.address, escrow.address) && isAddressEqual(log.args.owner, owner))
    .reduce((sum, log) => sum + log.args.amount, 0n);
}

export class EscrowTxRevertedError extends Error {
  override readonly name = 'EscrowTxRevertedError';
  readonly hash: Hex;
  constructor(hash: Hex) {
    super(`The transaction ${hash} reverted`);
    this.hash = hash;
  }
}

class StakeSpentError extends Error {
  override readonly name = 'StakeSpentError';
}

/**
 * Why a call to the escrow did not go through, for the user: `rejected` in the wallet; `already-paid` (the
 * stake is spent: the contract reverts `StakeMismatch`, or the mined call reverted and the stake is gone);
 * `not-yet` (the contract does not pay it yet: `NotClaimable`, `NotRefundable`); `nothing-to-withdraw`;
 * `reverted` (another revert, named in `detail`); `other` (the wallet's words in `detail`, if any).
 */
export type EscrowFailure = {
  kind: 'rejected' | 'already-paid' | 'not-yet' | 'nothing-to-withdraw' | 'reverted' | 'other';
  detail?: string;
};

export function classifyEscrowFailure(error: unknown): EscrowFailure {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (('code' in cause && cause.code === 4001) || cause.name === 'UserRejectedRequestError') {
      return { kind: 'rejected' };
    }
  }
  if (error instanceof StakeSpentError) return { kind: 'already-paid' };
  if (error instanceof EscrowTxRevertedError) return { kind: 'reverted' };
  const revert = decodeRevert(error);
  if (!revert) return { kind: 'other', ...detail(walletErrorMessage(error)) };
  switch (revert.errorName) {
    case 'StakeMismatch':
      return { kind: 'already-paid' };
    case 'NotClaimable':
    case 'NotRefundable':
      return { kind: 'not-yet' };
    case 'NothingToWithdraw':
      return { kind: 'nothing-to-withdraw' };
    default:
      return { kind: 'reverted', detail: formatRevert(revert) };
  }
}

const detail = (text: string | undefined) => (text ? { detail: text } : {});
