import { PRICE_DECIMALS } from '@pm/core/constants';
import { BNB_DECIMALS } from '@pm/core/money';
import { parseUsdPrice } from '@pm/core/price';
import { useTranslation } from '#i18n/use-translation.ts';

// The one place the web formats numbers for people: digit grouping,
// decimal mark, currency symbol and sign come from Intl.NumberFormat for the current language.
// Money stays exact: the integer part is formatted as a bigint (Intl accepts bigint) and the
// fraction is cut from the remainder, so no wei ever goes through a float.

export type Language = 'en' | 'zh';
type SignDisplay = 'auto' | 'always' | 'exceptZero' | 'never';

const LOCALES: Record<Language, string> = { en: 'en-US', zh: 'zh-CN' };

type Style = { style: 'decimal' } | { style: 'currency'; currency: 'USD' } | { style: 'percent' };

// Not cached: a formatter costs microseconds, and every byte here is on each route (decision 006).
const numberFormat = (language: Language, options: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(LOCALES[language], options);

/**
 * `value / 10^scale` shown with `decimals` fraction digits, rounded toward zero (a display never
 * shows more than is there; a value that rounds to zero carries no minus sign). Intl lays out a
 * sample (±1 or 0 in the same style) so sign, symbol and decimal mark sit where the language puts
 * them; the exact digits replace the sample's.
 */
export function formatScaled(
  value: bigint,
  scale: number,
  decimals: number,
  language: Language,
  style: Style,
  signDisplay: SignDisplay,
  trim = false,
): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > scale) {
    throw new RangeError(`decimals must be an integer from 0 to ${scale}, got ${decimals}`);
  }
  const magnitude = value < 0n ? -value : value;
  let shown = magnitude / 10n ** BigInt(scale - decimals);
  // Trimmed: as few decimals as the digits need (trailing zeros, then the decimal mark, dropped).
  while (trim && decimals > 0 && shown % 10n === 0n) {
    shown /= 10n;
    decimals -= 1;
  }
  const unit = 10n ** BigInt(decimals);
  const sample = shown === 0n ? 0 : value < 0n ? -1 : 1;
  const layout = numberFormat(language, {
    ...style,
    signDisplay,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).formatToParts(sample);
  const integer = numberFormat(language, { maximumFractionDigits: 0 }).format(shown / unit);
  const fraction = (shown % unit).toString().padStart(decimals, '0');
  return layout
    .map((part) => (part.type === 'integer' ? integer : part.type === 'fraction' ? fraction : part.value))
    .join('');
}

export type FormatBnbOptions = {
  /** The current language (useFormat() fills it in). Default 'en'. */
  language?: Language;
  /** Fraction digits, 0..18; default 4 (docs/product.md §9: balances with 4 decimals). */
  decimals?: number;
  /** 'exceptZero' for a net P&L ("+0.5000 BNB" / "-0.5000 BNB"). Default 'auto'. */
  signDisplay?: SignDisplay;
  /** Drop trailing zeros of the fraction (and then the decimal mark), for amounts the user typed. */
  trim?: boolean;
  /** The unit after the number: default 'BNB' (the testnet's is 'tBNB'); null for none, when the sentence says it. */
  symbol?: string | null;
};

/** wei → "10,000.2900 BNB" (en) / "10,000.2900 BNB" (zh); exact, rounded toward zero. */
export function formatBnb(wei: bigint | string, options: FormatBnbOptions = {}): string {
  const { language = 'en', decimals = 4, signDisplay = 'auto', trim = false, symbol = 'BNB' } = options;
  const text = formatScaled(
    BigInt(wei),
    BNB_DECIMALS,
    decimals,
    language,
    { style: 'decimal' },
    signDisplay,
    trim,
  );
  return symbol === null ? text : `${text} ${symbol}`;
}

export type FormatUsdOptions = {
  language?: Language;
  /** Fraction digits, 0..8; default 2 (cents). */
  decimals?: number;
  signDisplay?: SignDisplay;
};

/**
 * A USD amount, as a 1e8-scaled bigint (docs/product.md §9 prices; `usdValueOfWei`) or the API's decimal
 * text, as currency: "$5,993,443.06" (en) / "US$5,993,443.06" (zh).
 */
export function formatUsd(usd: bigint | string, options: FormatUsdOptions = {}): string {
  const { language = 'en', decimals = 2, signDisplay = 'auto' } = options;
  const scaled = typeof usd === 'string' ? parseUsdPrice(usd) : usd;
  return formatScaled(
    scaled,
    PRICE_DECIMALS,
    decimals,
    language,
    { style: 'currency', currency: 'USD' },
    signDisplay,
  );
}

/** A BNB/USD price (the API's decimal text or 1e8-scaled): currency with 4 decimals, "$612.3456". */
export function formatPrice(usd: bigint | string, options: FormatUsdOptions = {}): string {
  return formatUsd(usd, { decimals: 4, ...options });
}

export type FormatPercentOptions = {
  language?: Language;
  /** Most fraction digits; default 0. */
  decimals?: number;
  signDisplay?: SignDisplay;
};

/** A ratio (0.5 = half) as a percentage: "50%", "62.5%". Ratios are not money, a float is fine. */
export function formatPercent(ratio: number, options: FormatPercentOptions = {}): string {
  const { language = 'en', decimals = 0, signDisplay = 'auto' } = options;
  return numberFormat(language, { style: 'percent', maximumFractionDigits: decimals, signDisplay }).format(
    ratio,
  );
}

/** A plain count with digit grouping: "1,234". */
export function formatCount(count: number | bigint, language: Language = 'en'): string {
  return numberFormat(language, { maximumFractionDigits: 0 }).format(count);
}

/** A wire time (ISO) as a medium date and short time: "Nov 23, 2026, 7:30 PM" / "2026年11月23日 19:30". */
export function formatDateTime(iso: string, language: Language = 'en'): string {
  return new Date(iso).toLocaleString(LOCALES[language], { dateStyle: 'medium', timeStyle: 'short' });
}

/** Seconds → "4:05" or "1:02:03" (0 once passed): the one countdown of markets, reviews and rounds. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const ss = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

type WithoutLanguage<T> = Omit<T, 'language'>;

/** The formatters bound to the current language (re-renders when it changes). */
export function useFormat() {
  const { language } = useTranslation();
  return {
    language,
    bnb: (wei: bigint | string, options: WithoutLanguage<FormatBnbOptions> = {}) =>
      formatBnb(wei, { ...options, language }),
    usd: (usd: bigint | string, options: WithoutLanguage<FormatUsdOptions> = {}) =>
      formatUsd(usd, { ...options, language }),
    price: (usd: bigint | string, options: WithoutLanguage<FormatUsdOptions> = {}) =>
      formatPrice(usd, { ...options, language }),
    percent: (ratio: number, options: WithoutLanguage<FormatPercentOptions> = {}) =>
      formatPercent(ratio, { ...options, language }),
    count: (count: number | bigint) => formatCount(count, language),
    dateTime: (iso: string) => formatDateTime(iso, language),
  };
}
