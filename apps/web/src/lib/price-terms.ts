import type { ComparisonType, PriceSymbol } from '@pm/core/constants';
import { TargetPriceSchema } from '@pm/core/contract/primitives';
import { targetPriceScaled } from '@pm/core/price-market';
import { formatScaled, type Language } from './use-format.ts';

// The Price Oracle terms as the web shows them: the target typed by the creator checked
// with core's schema (the same one the server applies), and the gap between the live price and the
// target worked out on 1e8-scaled integers. Display only: the outcome is decided by the server.
// Shared: the create dialog checks the target its price fields (features/price-markets) take.

/** A price market's terms as the creator chooses them; the target as typed. */
export type PriceTerms = { symbol: PriceSymbol; comparison: ComparisonType; target: string };

export type TargetCheck =
  | { ok: true; target: string; scaled: bigint }
  | { ok: false; reason: 'empty' | 'invalid' };

/** The creator's target as it will be sent (trimmed): a positive USD price with at most 2 decimals. */
export function checkTargetPrice(input: string): TargetCheck {
  const target = input.trim();
  if (target === '') return { ok: false, reason: 'empty' };
  if (!TargetPriceSchema.safeParse(target).success) return { ok: false, reason: 'invalid' };
  return { ok: true, target, scaled: targetPriceScaled(target) };
}

/**
 * How far the target is from the current price, in basis points of the current price, rounded
 * toward zero: +150 means the target is 1.50 % above it. Null without a positive current price.
 */
export function targetGapBps(currentScaled: bigint, targetScaled: bigint): bigint | null {
  if (currentScaled <= 0n) return null;
  return ((targetScaled - currentScaled) * 10_000n) / currentScaled;
}

/**
 * Basis points as a percentage with 2 decimals, signed: 150n → "+1.50%", exact (no float on the
 * way). Here, not in lib/use-format.ts, so only the lazy price parts carry it (decision 006).
 */
export function formatGapBps(bps: bigint, language: Language): string {
  return formatScaled(bps, 2, 2, language, { style: 'percent' }, 'exceptZero');
}
