import type { Market } from '@pm/core/contract/markets';
import { parseUsdPrice } from '@pm/core/price';
import { priceReadingRelation } from '@pm/core/price-market';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';

// A price market's description and settled analysis said from its fields, in the reader's
// language with Intl's number and date formats. The server stores the same facts in English for API
// clients; the outcome is the server's (market.result), and where the reading stands against the
// target is core's rule (priceReadingRelation), the one the server's analysis states.

/** The rule the feed settles by: the coin, the feed, the deadline and the target. */
export function PriceMarketDescription({ market }: { market: Market }) {
  useNamespace('price');
  const { t } = useTranslation();
  const format = useFormat();
  if (!market.targetSymbol || !market.targetPrice || !market.comparisonType) return market.description;
  return t(`price.description.${market.comparisonType}`, {
    symbol: market.targetSymbol,
    feed: market.priceFeed ?? '—',
    deadline: format.dateTime(market.deadline),
    target: format.usd(market.targetPrice),
  });
}

/**
 * How a settled price market was decided: the feed's reading, when the feed says it was taken, and
 * where it stands against the target, then the result; or why it was voided. Anything else (not
 * settled from a reading) keeps the server's words.
 */
export function PriceMarketAnalysis({ market }: { market: Market }) {
  useNamespace('price');
  const { t } = useTranslation();
  const format = useFormat();
  const symbol = market.targetSymbol ?? '';
  if (market.result === 'VOID') return t('price.analysis.void', { symbol });
  const { settlementPrice, settlementUpdatedAt, targetPrice } = market;
  if (!settlementPrice || !settlementUpdatedAt || !targetPrice || !market.result) return market.aiVerdict;
  const relation = priceReadingRelation({
    targetScaled: parseUsdPrice(targetPrice),
    settlementScaled: parseUsdPrice(settlementPrice),
  });
  return t(`price.analysis.${relation}`, {
    symbol,
    price: format.price(settlementPrice),
    time: format.dateTime(settlementUpdatedAt),
    target: format.usd(targetPrice),
    result: market.result,
  });
}
