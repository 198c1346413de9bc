import { PRICE_DECIMALS } from './constants.ts';
import {
  DecimalParseError,
  type DecimalParseFailure,
  floorDiv,
  formatScaledDecimal,
  parseScaledDecimal,
} from './decimal.ts';
import { WEI_PER_BNB } from './money.ts';

// docs/product.md §7/§9: prices are integers scaled by 1e8 (the Chainlink feed's 8 decimals). The API carries
// them as decimal strings (docs/api.md conventions); this module converts both ways without floats.

export class PriceParseError extends DecimalParseError {
  override readonly name = 'PriceParseError';

  constructor(code: DecimalParseFailure, input: string) {
    super(code, input, `Not a USD price with at most ${PRICE_DECIMALS} decimals: ${JSON.stringify(input)}`);
  }
}

/** "612.34" → 61234000000n. Exact; at most 8 decimals; no sign, exponent or separators. */
export function parseUsdPrice(text: string): bigint {
  const parsed = parseScaledDecimal(text, PRICE_DECIMALS);
  if (!parsed.ok) throw new PriceParseError(parsed.code, text);
  return parsed.value;
}

/** 61234567890n → "612.34" (decimals 0..8, default 2), rounding toward zero. */
export function formatUsdPrice(scaled: bigint, decimals = 2): string {
  return formatScaledDecimal(scaled, PRICE_DECIMALS, decimals, false);
}

/** USD value of an amount of wei at a 1e8-scaled price, itself 1e8-scaled, rounded down. */
export function usdValueOfWei(wei: bigint, priceScaled: bigint): bigint {
  return floorDiv(wei * priceScaled, WEI_PER_BNB);
}

/**
 * How Chainlink names a coin's USD feed ("BNB / USD"), as its `description()` answers: what doctor
 * holds each configured feed to, and what the local chain's dev feeds call themselves.
 */
export function usdFeedDescription(symbol: string): string {
  return `${symbol} / USD`;
}
