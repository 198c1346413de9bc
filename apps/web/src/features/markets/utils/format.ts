import { parseBnb } from '@pm/core/money';

// Amounts, prices and dates are shown by lib/format.ts (one formatter for the whole web).

/** "1:05:09" / "4:09" to a deadline; 0 when passed. */
export function countdown(msLeft: number): string {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** A typed amount as wei, or null when it is not a valid BNB amount (the form shows the spec's message). */
export function parseBnbOrNull(text: string): bigint | null {
  try {
    return parseBnb(text);
  } catch {
    return null;
  }
}
