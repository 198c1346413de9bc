import { parseBnb } from '@pm/core/money';

// Amounts, prices and dates are shown by lib/format.ts, countdowns by lib/format-countdown.ts.

/** A typed amount as wei, or null when it is not a valid BNB amount (the form shows the spec's message). */
export function parseBnbOrNull(text: string): bigint | null {
  try {
    return parseBnb(text);
  } catch {
    return null;
  }
}
