/// <reference lib="es2023.intl" />
import { formatScaledDecimal } from '@pm/core/decimal';
import { BNB_DECIMALS } from '@pm/core/money';
import type { Language } from '../../../i18n/translate.ts';

// Issue 11 asks for every amount formatted with Intl.NumberFormat for the current language. H4
// builds the app's shared formatter; until the integrator swaps this for it, My Bets and the
// profile page use this local one. The wei amount goes to Intl as an exact decimal string (never a
// float), cut (not rounded) to `decimals` places.

const LOCALES: Record<Language, string> = { en: 'en-US', zh: 'zh-CN' };

export function formatBnbForLanguage(
  wei: bigint,
  language: Language,
  options: { decimals?: number; signed?: boolean; unit?: boolean } = {},
): string {
  const decimals = options.decimals ?? 4;
  const format = new Intl.NumberFormat(LOCALES[language], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    signDisplay: options.signed ? 'exceptZero' : 'auto',
  });
  // An exact decimal string: ES2023 Intl formats it without going through a float.
  const decimal = formatScaledDecimal(wei, BNB_DECIMALS, decimals, false);
  if (!isDecimal(decimal)) throw new Error(`not a decimal: ${decimal}`);
  const text = format.format(decimal);
  return options.unit === false ? text : `${text} BNB`;
}

function isDecimal(text: string): text is `${number}` {
  return /^-?[0-9]+(\.[0-9]+)?$/.test(text);
}

export function formatPercentForLanguage(ratio: number, language: Language): string {
  return new Intl.NumberFormat(LOCALES[language], { style: 'percent', maximumFractionDigits: 1 }).format(
    ratio,
  );
}
