import { BPS_DENOMINATOR } from '@pm/core/money';

/** A share in basis points as a percentage for `language` ("62.5%", "62.5%"); null → "—". */
export function formatShare(bps: number | null, language: string): string {
  if (bps === null) return '—';
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(
    bps / BPS_DENOMINATOR,
  );
}
