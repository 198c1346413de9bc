import {
  DecimalParseError,
  type DecimalParseFailure,
  floorDiv,
  formatScaledDecimal,
  parseScaledDecimal,
} from './decimal.ts';

// docs/architecture.md "Money, time and identity": money is bigint wei in code, never a float; the UI alone
// formats it. docs/product.md §9: 18 decimals, amounts shown with 4 decimals.

export const WEI_PER_BNB = 10n ** 18n;

/** BNB has 18 decimals (docs/product.md §3, chains). */
export const BNB_DECIMALS = 18;

/** Basis points in one whole: fees are configured in bps (docs/architecture.md "Markets", "Oracle rounds"). */
export const BPS_DENOMINATOR = 10_000;

const MESSAGES: Record<DecimalParseFailure, string> = {
  EMPTY: 'Enter an amount',
  INVALID: 'Enter an amount as a plain decimal number, like 0.005',
  NEGATIVE: 'The amount cannot be negative',
  TOO_PRECISE: 'BNB has at most 18 decimals',
};

export class MoneyParseError extends DecimalParseError {
  override readonly name = 'MoneyParseError';

  constructor(code: DecimalParseFailure, input: string) {
    super(code, input, MESSAGES[code]);
  }
}

/**
 * Exact decimal BNB text → wei. Accepts "1", "0.005", ".5", "1." with surrounding whitespace;
 * rejects empty text, signs, exponents, separators, hex, Infinity/NaN and more than 18 decimals.
 */
export function parseBnb(text: string): bigint {
  const parsed = parseScaledDecimal(text, BNB_DECIMALS);
  if (!parsed.ok) throw new MoneyParseError(parsed.code, text);
  return parsed.value;
}

export type FormatBnbOptions = {
  /** 0..18, default 4 (docs/product.md §9: balance 4 decimals). */
  decimals?: number;
  /** Drop trailing zeros (and then the dot). Default false: tabular figures keep their width. */
  trim?: boolean;
};

/** wei → "12.3456". Rounds toward zero: never shows more than is there. */
export function formatBnb(wei: bigint, options: FormatBnbOptions = {}): string {
  return formatScaledDecimal(wei, BNB_DECIMALS, options.decimals ?? 4, options.trim ?? false);
}

export type FormatBnbWithUnitOptions = FormatBnbOptions & {
  /** Default 'BNB'; the testnet's is 'tBNB' (docs/product.md §3). */
  symbol?: string;
};

/** wei → "0.0050 BNB": amounts always carry their unit (docs/architecture.md "Look and feel"). */
export function formatBnbWithUnit(wei: bigint, options: FormatBnbWithUnitOptions = {}): string {
  return `${formatBnb(wei, options)} ${options.symbol ?? 'BNB'}`;
}

/** Throws unless `bps` is a whole number of basis points from 0 to 10000. */
export function assertBps(bps: number): void {
  if (!Number.isInteger(bps) || bps < 0 || bps > BPS_DENOMINATOR) {
    throw new RangeError(`bps must be an integer from 0 to ${BPS_DENOMINATOR}, got ${bps}`);
  }
}

/** floor(amount × bps / 10000): a fee never takes a fraction of a wei more than its rate. */
export function bpsOf(amount: bigint, bps: number): bigint {
  assertBps(bps);
  return floorDiv(amount * BigInt(bps), BigInt(BPS_DENOMINATOR));
}
