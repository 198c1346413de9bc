import type { Market } from '@pm/core/contract/markets';
import { parseUsdPrice } from '@pm/core/price';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { formatGapBps, targetGapBps } from '#lib/price-terms.ts';
import { useFormat } from '#lib/use-format.ts';
import { useCoinPrice } from '../api/get-coin-price.ts';
import { asPriceSymbol, CoinIcon } from './coin-icon.tsx';

/**
 * A price market's card lines: the coin, the target and comparison, the coin's live
 * price and how far the target is from it. Loaded only when a price market is listed.
 */
export function PriceCardFacts({ market }: { market: Market }) {
  useNamespace('price');
  const { t } = useTranslation();
  const format = useFormat();
  const symbol = asPriceSymbol(market.targetSymbol);
  // Only an open market's price moves its odds; a settled one shows its settlement instead.
  const open = market.status !== 'settled';
  const price = useCoinPrice(open ? symbol : null);
  if (!market.targetPrice || !market.comparisonType) return null;
  const target = parseUsdPrice(market.targetPrice);
  const current = price.data ? parseUsdPrice(price.data.usd) : null;
  const gap = current === null ? null : targetGapBps(current, target);
  return (
    <div className="flex flex-col gap-1 text-xs" data-testid="price-card-facts">
      <p className="flex items-center gap-2 text-sm font-semibold">
        {symbol && <CoinIcon symbol={symbol} />}
        <span className="tabular-nums">
          {t('price.card.terms', {
            symbol: market.targetSymbol ?? '',
            comparison: t(`price.card.${market.comparisonType}`),
            target: format.usd(target),
          })}
        </span>
      </p>
      {open && (
        <dl className="grid grid-cols-2 gap-2">
          <div>
            <dt className="text-muted">{t('price.card.live')}</dt>
            <dd className="tabular-nums" data-testid="card-live-price">
              {price.data ? format.price(price.data.usd) : '—'}
            </dd>
          </div>
          <div>
            <dt className="text-muted">{t('price.card.gap')}</dt>
            <dd className="tabular-nums" data-testid="card-gap">
              {gap === null ? '—' : formatGapBps(gap, format.language)}
            </dd>
          </div>
        </dl>
      )}
      {market.settlementPrice && (
        <p className="tabular-nums">
          {t('price.settlement.price')}: {format.price(market.settlementPrice)}
        </p>
      )}
      {market.startPrice && (
        <p className="text-muted tabular-nums">
          {t('markets.card.startPrice')}: {format.price(market.startPrice)}
        </p>
      )}
    </div>
  );
}
