import { formatBnb, parseBnb } from '@pm/core/money';

// What the BNB amount fields read and show: exact decimal text, never a float (docs/architecture.md
// "Money, time and identity"). Amounts shown to people go through use-format.ts instead.

/** A typed amount as wei, or null when it is not a valid BNB amount (the form shows the spec's message). */
export function parseBnbOrNull(text: string): bigint | null {
  try {
    return parseBnb(text);
  } catch {
    return null;
  }
}

/** wei as an amount field's text, every decimal it needs and no more: 5×10^15 → "0.005". */
export function bnbInputText(wei: bigint): string {
  return formatBnb(wei, { decimals: 18, trim: true });
}
