import { BPS_DENOMINATOR } from '@pm/core/money';
import { formatPercent, type Language } from '#lib/use-format.ts';

/** A share in basis points as a percentage for `language` ("62.5%"); null → "—". */
export function formatShare(bps: number | null, language: Language): string {
  if (bps === null) return '—';
  return formatPercent(bps / BPS_DENOMINATOR, { language, decimals: 1 });
}
