// The operator key's transaction fees (decision 026, "Operator transactions"): the market's fees under
// the deployment's ceiling (PAYOUT_MAX_FEE_PER_GAS_GWEI), and the fees that replace a stuck transaction
// at its nonce. Pure: the server reads the chain and passes the numbers in.

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

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
