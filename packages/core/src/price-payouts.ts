import { PRICE_OUTCOME, type PriceOutcome } from './price-outcome.ts';

// What a stake of a settled price kind gets back (docs/decisions/031 "Payouts computed by the contract
// for price kinds", 034 "Settlement"): MarketEscrow's `pricePayout` and its claim, over the totals its
// `PriceSettled` event carries, so the server and the web show what a claim pays, to the wei.

/** A stake's side: YES (a round's UP) or NO (DOWN). */
export type PriceSide = typeof PRICE_OUTCOME.yes | typeof PRICE_OUTCOME.no;

export type PriceStakeReturnInput = {
  /** The stake, in wei. */
  amount: bigint;
  side: PriceSide;
  /** The market's outcome: a winning side, or why every stake is refunded. */
  outcome: PriceOutcome;
  /** What the winners share (the pool less the fee): `PriceSettled.payoutTotal`. */
  payoutTotal: bigint;
  /** Every stake on the winning side, in wei (the contract's `sides`). */
  winningSideTotal: bigint;
};

/**
 * Wei a stake is paid: a refunding outcome (a draw, nobody on the winning side, a stale or non-positive
 * price) gives the stake back; a winner gets `amount × payoutTotal / winningSideTotal`, rounded down
 * (the dust, under one wei per winner, goes to the fee with the last claim); a loser gets 0.
 */
export function priceStakeReturnWei(input: PriceStakeReturnInput): bigint {
  const { amount, side, outcome, payoutTotal, winningSideTotal } = input;
  if (amount <= 0n) throw new RangeError(`a stake is above 0 wei, got ${amount}`);
  if (side !== PRICE_OUTCOME.yes && side !== PRICE_OUTCOME.no) {
    throw new RangeError(`a stake's side is ${PRICE_OUTCOME.yes} or ${PRICE_OUTCOME.no}, got ${side}`);
  }
  if (!Object.values(PRICE_OUTCOME).includes(outcome)) throw new RangeError(`no price outcome ${outcome}`);
  if (outcome !== PRICE_OUTCOME.yes && outcome !== PRICE_OUTCOME.no) return amount;
  if (side !== outcome) return 0n;
  if (payoutTotal < 0n) throw new RangeError(`payoutTotal cannot be negative, got ${payoutTotal}`);
  if (winningSideTotal < amount) {
    throw new RangeError(
      `the winning side (${winningSideTotal} wei) holds at least the stake (${amount} wei)`,
    );
  }
  return (amount * payoutTotal) / winningSideTotal;
}
