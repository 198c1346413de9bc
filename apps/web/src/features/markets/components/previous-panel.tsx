import { History } from 'lucide';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { marketTitle, priceTitleTerms } from '#lib/use-market-title.ts';
import { Badge } from '#ui/badge.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { useSettledMarkets } from '../api/get-markets.ts';

/** docs/product.md §2 Previous Rounds: the last settled markets (limit 10, every 30 s). */
export function PreviousPanel() {
  const i18n = useTranslation();
  const { t } = i18n;
  const format = useFormat();
  const settled = useSettledMarkets();
  return (
    <Card className="p-4">
      <section aria-labelledby="previous-title" className="flex flex-col gap-3">
        <h2 id="previous-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={History} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.previous.title')}
        </h2>
        {settled.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : settled.data?.markets.length ? (
          <ul className="flex flex-col gap-2">
            {settled.data.markets.map((market) => (
              <li key={market.id} className="flex items-center justify-between gap-2 text-sm">
                <Link to={`/market/${market.id}`} className="min-w-0 flex-1 truncate hover:text-brand">
                  {marketTitle(market.title, priceTitleTerms(market), i18n)}
                </Link>
                <Badge tone={market.result === 'YES' ? 'yes' : market.result === 'NO' ? 'no' : 'neutral'}>
                  {market.result ?? '—'}
                </Badge>
                <span className="text-xs text-muted tabular-nums">
                  {format.bnb(BigInt(market.totalYesWei) + BigInt(market.totalNoWei))}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted">{t('markets.previous.none')}</p>
        )}
      </section>
    </Card>
  );
}
