import { formatBnb, parseBnb } from '@pm/core/money';

/** Spec §9: amounts with 4 decimals and their unit. */
export const bnb = (wei: bigint | string) => `${formatBnb(BigInt(wei), { decimals: 4 })} BNB`;

/** "1:05:09" / "4:09" to a deadline; 0 when passed. */
export function countdown(msLeft: number): string {
  const total = Math.max(0, Math.floor(msLeft / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export const dateTime = (iso: string, language: string) =>
  new Date(iso).toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

/** A typed amount as wei, or null when it is not a valid BNB amount (the form shows the spec's message). */
export function parseBnbOrNull(text: string): bigint | null {
  try {
    return parseBnb(text);
  } catch {
    return null;
  }
}
