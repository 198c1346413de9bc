// The public constants of contracts/PredictionEscrow.sol, for code that must agree with the contract
// before it calls it (a settlement's fee cap, a deposit's latest close). Mirrored, not read from the
// chain, so pure code and the web can use them; test/escrow-constants.test.ts checks each against the
// deployed contract. Seconds and wei, as the contract counts them.

/** Basis points: what `MAX_FEE_BPS` is out of. */
export const BPS = 10_000n;
/** Most a settlement may keep as fee, rounding dust included: 10 % of the pool. */
export const MAX_FEE_BPS = 1000n;
/** A market unsettled this long after its close refunds every stake, on anyone's call. */
export const ESCAPE_DELAY = 7n * 86_400n;
/** Latest close a deposit may name, from its block. */
export const MAX_BETTING_PERIOD = 2n * 86_400n;
/** Gas forwarded with a pushed payout; a push that fails becomes a credit. */
export const PAYOUT_GAS_CAP = 50_000n;
/** Bounds of a settlement's payout delay (the guardian's window). */
export const MIN_PAYOUT_DELAY = 60n;
export const MAX_PAYOUT_DELAY = 7n * 86_400n;
/** Bounds of the settlement rate limit's capacity, in wei. */
export const MIN_SETTLEMENT_CAPACITY = 10n ** 17n;
export const MAX_SETTLEMENT_CAPACITY = 10_000n * 10n ** 18n;
/** Most times a market's pending settlement may be disputed (a flag's bond sends it back). */
export const MAX_DISPUTES = 3;
/** Bounds of the dispute bond's floor (`disputeBondMin`, fixed at deploy), in wei. */
export const MIN_DISPUTE_BOND_MIN = 10n ** 15n;
export const MAX_DISPUTE_BOND_MIN = 10n * 10n ** 18n;
/** Most of a pool the dispute bond may ask (`disputeBondBps`, fixed at deploy). */
export const MAX_DISPUTE_BOND_BPS = 2000n;

/** The largest fee `settle` accepts for a pool: `pool × MAX_FEE_BPS / 10,000`, rounded down as the contract does. */
export function maxFee(pool: bigint): bigint {
  return (pool * MAX_FEE_BPS) / BPS;
}
