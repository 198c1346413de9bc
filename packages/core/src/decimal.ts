/**
 * Exact fixed-point decimal text ⇄ scaled bigint. Shared by money (18 decimals: wei, docs/architecture.md "Money, time and identity")
 * and prices (8 decimals: docs/product.md §9 "prices scaled by 1e8"). Strings in, strings out: a float would
 * silently lose wei.
 */

export type DecimalParseFailure = 'EMPTY' | 'INVALID' | 'NEGATIVE' | 'TOO_PRECISE';

export type DecimalParseResult = { ok: true; value: bigint } | { ok: false; code: DecimalParseFailure };

/** Text that is not a decimal of the expected scale; each scale's subclass words the message. */
export class DecimalParseError extends Error {
  readonly code: DecimalParseFailure;
  readonly input: string;

  constructor(code: DecimalParseFailure, input: string, message: string) {
    super(message);
    this.code = code;
    this.input = input;
  }
}

// ASCII digits with at most one dot. No sign, exponent, grouping separator or hex: "1e18", "1,5"
// and "0x10" each mean something different to different people, so an amount never guesses.
const PLAIN_DECIMAL = /^([0-9]*)(?:\.([0-9]*))?$/;

/** uint256 has 78 digits; no scale we use comes near it. */
const MAX_SCALE = 78;

function assertScale(scale: number, name: string, max = MAX_SCALE): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > max) {
    throw new RangeError(`${name} must be an integer from 0 to ${max}, got ${scale}`);
  }
}

function splitPlainDecimal(text: string): { whole: string; fraction: string } | null {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  // "." alone has no digit at all.
  if (whole === '' && fraction === '') return null;
  return { whole, fraction };
}

/**
 * Parses "1", "0.005", ".5", "1." (surrounding whitespace ignored) into `value × 10^scale`, exactly.
 * Never throws on user text: the caller turns the failure code into its own error.
 */
export function parseScaledDecimal(text: string, scale: number): DecimalParseResult {
  assertScale(scale, 'scale');
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, code: 'EMPTY' };
  if (trimmed.startsWith('-')) {
    // A well-formed negative number gets its own code so the UI can say why; "-abc" is just junk.
    return { ok: false, code: splitPlainDecimal(trimmed.slice(1)) ? 'NEGATIVE' : 'INVALID' };
  }
  const parts = splitPlainDecimal(trimmed);
  if (!parts) return { ok: false, code: 'INVALID' };
  if (parts.fraction.length > scale) return { ok: false, code: 'TOO_PRECISE' };
  const unit = 10n ** BigInt(scale);
  const whole = BigInt(parts.whole === '' ? '0' : parts.whole);
  const fraction = BigInt(parts.fraction.padEnd(scale, '0') || '0');
  return { ok: true, value: whole * unit + fraction };
}

/**
 * Formats `value / 10^scale` with `shown` decimals, truncating toward zero so a display never
 * shows more than is there. A value that truncates to zero is shown unsigned ("0.0000", not
 * "-0.0000"). `trim` drops trailing zeros and then a bare dot.
 */
export function formatScaledDecimal(value: bigint, scale: number, shown: number, trim: boolean): string {
  assertScale(scale, 'scale');
  assertScale(shown, 'decimals', scale);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const unit = 10n ** BigInt(scale);
  const whole = magnitude / unit;
  let fraction = (magnitude % unit).toString().padStart(scale, '0').slice(0, shown);
  if (trim) fraction = fraction.replace(/0+$/, '');
  const body = fraction === '' ? whole.toString() : `${whole}.${fraction}`;
  const shownAsZero = whole === 0n && /^0*$/.test(fraction);
  return negative && !shownAsZero ? `-${body}` : body;
}

/** floor(numerator / denominator) for a positive denominator; bigint `/` truncates toward zero instead. */
export function floorDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const quotient = numerator / denominator;
  return numerator < 0n && quotient * denominator !== numerator ? quotient - 1n : quotient;
}
