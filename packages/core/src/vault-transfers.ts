import type { Address } from 'viem';

// Rules for the vault's outgoing transfers (claims and refunds): gas, fees, when a refund is worth
// paying, and what a winner signs to have a failed payout re-issued elsewhere (docs/decisions/002).
// Pure: the server reads the chain and passes the numbers in.

/** A plain transfer's gas; also the floor for any payout's gas limit. */
export const TRANSFER_GAS = 21_000n;

/**
 * The gas limit for a payout from `eth_estimateGas` of that very transfer: 20% above the estimate,
 * never below 21000. A recipient with code (EIP-7702 account, contract wallet) needs more than 21000;
 * unused gas is not charged.
 */
export function payoutGasLimit(estimate: bigint): bigint {
  const withMargin = (estimate * 120n + 99n) / 100n;
  return withMargin > TRANSFER_GAS ? withMargin : TRANSFER_GAS;
}

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** The market's fees, never above the ceiling (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
export function capFees(market: Fees, ceiling: bigint): Fees {
  const maxFeePerGas = min(market.maxFeePerGas, ceiling);
  return { maxFeePerGas, maxPriorityFeePerGas: min(market.maxPriorityFeePerGas, maxFeePerGas) };
}

/**
 * Fees for replacing a transaction at the same nonce: each at least 12.5% above the previous one
 * (nodes refuse less) and at least the market's, within the ceiling. Null when the ceiling leaves no
 * valid replacement: the transaction then waits at its fees.
 */
export function replacementFees(previous: Fees, market: Fees, ceiling: bigint): Fees | null {
  const bump = (value: bigint) => (value * 1125n + 999n) / 1000n + 1n;
  const wantedPriority = max(bump(previous.maxPriorityFeePerGas), market.maxPriorityFeePerGas);
  const wantedMax = max(max(bump(previous.maxFeePerGas), market.maxFeePerGas), wantedPriority);
  const capped = capFees({ maxFeePerGas: wantedMax, maxPriorityFeePerGas: wantedPriority }, ceiling);
  if (capped.maxFeePerGas < bump(previous.maxFeePerGas)) return null;
  if (capped.maxPriorityFeePerGas < bump(previous.maxPriorityFeePerGas)) return null;
  return capped;
}

/** What a transfer can cost the vault at most: its gas limit at its max fee. */
export function maxTransferCost(gasLimit: bigint, fees: Fees): bigint {
  return gasLimit * fees.maxFeePerGas;
}

/**
 * Why a refund is held for an operator rather than paid, or null to pay it (security review F16):
 * a refund that returns no more than its own gas costs the vault more than it gives back, and a
 * deployment may set a floor (REFUND_MIN_WEI).
 */
export function refundHoldReason(input: {
  amountWei: bigint;
  gasCostWei: bigint;
  minWei: bigint;
}): string | null {
  if (input.amountWei <= 0n) return 'nothing to refund (amount 0)';
  if (input.amountWei <= input.gasCostWei)
    return `the refund (${input.amountWei} wei) does not exceed its gas cost (${input.gasCostWei} wei)`;
  if (input.amountWei < input.minWei)
    return `the refund (${input.amountWei} wei) is below REFUND_MIN_WEI (${input.minWei} wei)`;
  return null;
}

/**
 * EIP-712 typed data a winner signs so a failed payout (their address cannot receive a plain
 * transfer) is paid to another address of theirs. Names the app, the chain, the payout and an expiry,
 * so the signature is good for that one re-issue only.
 */
export function payoutReissueTypedData(input: {
  chainId: number;
  payoutId: number;
  newAddress: Address;
  /** Unix seconds. */
  expiry: bigint;
}) {
  return {
    domain: { name: 'BNB Predict', version: '1', chainId: input.chainId },
    types: {
      PayoutReissue: [
        { name: 'payoutId', type: 'uint256' },
        { name: 'newAddress', type: 'address' },
        { name: 'expiry', type: 'uint256' },
      ],
    },
    primaryType: 'PayoutReissue',
    message: { payoutId: BigInt(input.payoutId), newAddress: input.newAddress, expiry: input.expiry },
  } as const;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
