import type { ComparisonType } from '@pm/core/constants';
import type { Language, TFunction } from '../i18n/translate.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { formatDateTime, formatUsd } from './use-format.ts';

// A price market's title is said from its terms, in the reader's language with the
// reader's number and date formats; the server's English title stays for API clients and search.
// Here, not in a feature, because the market pages and the history (my-bets) both show titles.

/** What a price market's title is made of, as the API returns it (Market, HistoryEntry.priceTerms). */
export type PriceTitleTerms = {
  targetSymbol: string;
  comparisonType: ComparisonType;
  /** USD, as the API writes it ("100000.50"). */
  targetPrice: string;
  /** ISO time. */
  deadline: string;
};

/** A market's price terms, or null for a custom market (or a price market missing one of them). */
export function priceTitleTerms(market: {
  betType: string;
  targetSymbol: string | null;
  comparisonType: ComparisonType | null;
  targetPrice: string | null;
  deadline: string;
}): PriceTitleTerms | null {
  const { betType, targetSymbol, comparisonType, targetPrice, deadline } = market;
  if (betType !== 'price_prediction' || !targetSymbol || !comparisonType || !targetPrice) return null;
  return { targetSymbol, comparisonType, targetPrice, deadline };
}

/** The title to show: a price market's from its terms, any other market's as its creator wrote it. */
export function marketTitle(
  title: string,
  terms: PriceTitleTerms | null | undefined,
  { t, language }: { t: TFunction; language: Language },
): string {
  if (!terms) return title;
  return t(`market.priceTitle.${terms.comparisonType}`, {
    symbol: terms.targetSymbol,
    target: formatUsd(terms.targetPrice, { language }),
    deadline: formatDateTime(terms.deadline, language),
  });
}

/** marketTitle in the current language. */
export function useMarketTitle(title: string, terms: PriceTitleTerms | null | undefined): string {
  return marketTitle(title, terms, useTranslation());
}
