import { type Address, encodeFunctionData, type Hex, hexToBytes } from 'viem';
import type { StakeRef } from '../market-deposits/market-deposit.ts';
import { BATCH_ITEM_GAS } from '../market-escrow-constants.ts';
import { marketClaimAbi } from './market-claim-abi.gen.ts';

// docs/decisions/034 "Claims": the calls that pay a settled stake or give one back. A price kind's claim
// names no payout (the contract computes it); a judged stake's names its amount in the payout list and
// that leaf's proof. A batch is signed at `batchGas`, a figure from the contract's own up-front check,
// never at a node's estimate (where a recipient that burns gas only outside estimates looks cheap).

/** A claim of a settled market's winning stake. */
export type MarketClaim =
  | { kind: 'price'; stake: StakeRef }
  | { kind: 'judged'; stake: StakeRef; payout: bigint; proof: readonly Hex[] };

/** One transaction's call: to the escrow, no value. */
export type MarketClaimCall = { to: Address; data: Hex };
/** A batch's call with the gas it is signed at. */
export type MarketBatchCall = MarketClaimCall & { gas: bigint };

/**
 * What `claimMany` and `refundMany` spend before their gas check (dispatch, the reentrancy guard,
 * reading the batch's length), with margin: about 1,200 gas on the local chain, which
 * test/market-claim-calls.test.ts measures (the least gas limit that passes the check) and holds to at
 * most half of this.
 */
export const BATCH_CALL_GAS = 5_000n;

const TRANSACTION_GAS = 21_000n;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** The call that pays one claim. */
export function claimCall(escrow: Address, claim: MarketClaim): MarketClaimCall {
  return {
    to: escrow,
    data: encodeFunctionData({ abi: marketClaimAbi, functionName: 'claim', args: [claimArgs(claim)] }),
  };
}

/** The call that pays `claims` in one transaction (a stake paid meanwhile is skipped), at `batchGas`. */
export function claimManyCall(escrow: Address, claims: readonly MarketClaim[]): MarketBatchCall {
  if (claims.length === 0) throw new RangeError('a batch claims at least one stake');
  const data = encodeFunctionData({
    abi: marketClaimAbi,
    functionName: 'claimMany',
    args: [claims.map(claimArgs)],
  });
  return { to: escrow, data, gas: batchGas(claims.length, data) };
}

/** The call that gives one stake back (a refunding market's, or any past its escape). */
export function refundCall(escrow: Address, stake: StakeRef): MarketClaimCall {
  return {
    to: escrow,
    data: encodeFunctionData({ abi: marketClaimAbi, functionName: 'refund', args: [stakeArgs(stake)] }),
  };
}

/** The call that gives `stakes` back in one transaction (a stake spent meanwhile is skipped), at `batchGas`. */
export function refundManyCall(escrow: Address, stakes: readonly StakeRef[]): MarketBatchCall {
  if (stakes.length === 0) throw new RangeError('a batch refunds at least one stake');
  const data = encodeFunctionData({
    abi: marketClaimAbi,
    functionName: 'refundMany',
    args: [stakes.map(stakeArgs)],
  });
  return { to: escrow, data, gas: batchGas(stakes.length, data) };
}

/**
 * The gas limit a batch of `items` with calldata `data` is signed at: the transaction's own cost (21,000
 * and its calldata, which the chain charges before the contract runs, and which grows with each item's
 * proof), the call's base to its check (BATCH_CALL_GAS), and `items × BATCH_ITEM_GAS`, which the
 * contract requires left before its first item. Each item spends less than its share, so a batch signed
 * at this finishes; one signed below `items × BATCH_ITEM_GAS` fails before any payout. Never less than
 * EIP-7623's calldata floor, which a transaction's limit must cover.
 */
export function batchGas(items: number, data: Hex): bigint {
  if (!Number.isSafeInteger(items) || items <= 0)
    throw new RangeError(`items must be at least 1, got ${items}`);
  let zeros = 0n;
  let nonZeros = 0n;
  for (const byte of hexToBytes(data)) {
    if (byte === 0) zeros += 1n;
    else nonZeros += 1n;
  }
  const standard =
    TRANSACTION_GAS + zeros * 4n + nonZeros * 16n + BATCH_CALL_GAS + BigInt(items) * BATCH_ITEM_GAS;
  const floor = TRANSACTION_GAS + (zeros + nonZeros * 4n) * 10n;
  return standard > floor ? standard : floor;
}

function claimArgs(claim: MarketClaim) {
  const stake = stakeArgs(claim.stake);
  if (claim.kind === 'price') return { stake, payout: 0n, proof: [] };
  if (claim.payout <= 0n) throw new RangeError(`a judged claim names its payout, got ${claim.payout}`);
  for (const node of claim.proof) {
    if (!BYTES32.test(node)) throw new RangeError('a proof is 32-byte hashes');
  }
  return { stake, payout: claim.payout, proof: [...claim.proof] };
}

function stakeArgs(stake: StakeRef): StakeRef {
  if (stake.stakeId <= 0n) throw new RangeError(`stakeId must be a stake id, got ${stake.stakeId}`);
  return {
    stakeId: stake.stakeId,
    owner: stake.owner,
    market: stake.market,
    amount: stake.amount,
    side: stake.side,
  };
}
