import { keccak256, stringToHex } from 'viem';
import type { ComparisonType, MarketDuration, PriceSymbol } from './constants.ts';
import { formatUsdPrice, parseUsdPrice } from './price.ts';

// Rules of a Price Oracle market (decision 020): "Will BTC be above $100,000.00 at 18:00 UTC?" is
// decided by a price feed at the deadline, with no judge. Prices are integers scaled by 1e8, as in
// the oracle game (docs/architecture.md "Money, time and identity"); nothing here uses a float.

export type PriceMarketTerms = {
  targetSymbol: PriceSymbol;
  comparisonType: ComparisonType;
  /** The target exactly as the creator sent it (a decimal string with at most 2 decimals). */
  targetPrice: string;
  duration: MarketDuration;
};

/**
 * What a price-market creation's payment commits to (decision 020; custom markets keep decision 008):
 * keccak256 of the UTF-8 JSON array `["price_prediction", targetSymbol, comparisonType,
 * targetPrice exactly as sent, duration]`.
 */
export function priceMarketContentHash(terms: PriceMarketTerms): `0x${string}` {
  const text = JSON.stringify([
    'price_prediction',
    terms.targetSymbol,
    terms.comparisonType,
    terms.targetPrice,
    terms.duration,
  ]);
  return keccak256(stringToHex(text));
}

/** The target as a 1e8-scaled integer ("100000.5" → 10000050000000n). */
export function targetPriceScaled(targetPrice: string): bigint {
  return parseUsdPrice(targetPrice);
}

/** Where a reading stands against the target: the fact the settled analysis states. */
export type PriceReadingRelation = 'above' | 'below' | 'equal';

/** The settlement reading against the target, compared exactly on the 1e8-scaled integers. */
export function priceReadingRelation(input: {
  targetScaled: bigint;
  settlementScaled: bigint;
}): PriceReadingRelation {
  const { targetScaled, settlementScaled } = input;
  return settlementScaled > targetScaled ? 'above' : settlementScaled < targetScaled ? 'below' : 'equal';
}

/**
 * The outcome at a settlement price: "above" is strictly greater, "below" strictly less, so a price
 * equal to the target is NO either way.
 */
export function priceMarketOutcome(input: {
  comparisonType: ComparisonType;
  targetScaled: bigint;
  settlementScaled: bigint;
}): 'YES' | 'NO' {
  return priceReadingRelation(input) === input.comparisonType ? 'YES' : 'NO';
}

/** "100000.5" → "100,000.50": the target as the title shows it, in whole cents, grouped by thousands. */
export function formatTargetUsd(targetPrice: string): string {
  const cents = formatUsdPrice(targetPriceScaled(targetPrice), 2);
  const [whole = '0', fraction = '00'] = cents.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/**
 * The parts a title is made of, so the web can say the same in either language from the market's
 * terms: the coin, above/below, the target in USD and the deadline's UTC time and date.
 */
export type PriceMarketTitleParts = {
  symbol: PriceSymbol;
  comparison: ComparisonType;
  /** "100,000.00" (no currency sign). */
  target: string;
  /** "18:00" in UTC. */
  timeUtc: string;
  /** "2026-11-25" in UTC. */
  dateUtc: string;
};

export function priceMarketTitleParts(input: {
  targetSymbol: PriceSymbol;
  comparisonType: ComparisonType;
  targetPrice: string;
  deadline: Date;
}): PriceMarketTitleParts {
  const iso = input.deadline.toISOString();
  return {
    symbol: input.targetSymbol,
    comparison: input.comparisonType,
    target: formatTargetUsd(input.targetPrice),
    timeUtc: iso.slice(11, 16),
    dateUtc: iso.slice(0, 10),
  };
}

/**
 * The English title the server stores: "Will BTC be above $100,000.00 at 18:00 UTC on 2026-11-25?".
 * The date is part of it because a daily market's 18:00 could be today's or tomorrow's.
 */
export function priceMarketTitle(input: Parameters<typeof priceMarketTitleParts>[0]): string {
  const parts = priceMarketTitleParts(input);
  return `Will ${parts.symbol} be ${parts.comparison} $${parts.target} at ${parts.timeUtc} UTC on ${parts.dateUtc}?`;
}
