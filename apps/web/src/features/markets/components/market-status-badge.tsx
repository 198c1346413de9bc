import type { Market } from '@pm/core/contract/markets';
import { marketDisplayStatus } from '@pm/core/market-rules';
import { useTranslation } from '#i18n/use-translation.ts';
import { Badge, LiveDot } from '#ui/badge.tsx';

/**
 * docs/product.md §4: Live (active, before deadline), Closed (deadline passed), Completed (settled); and In
 * review while a proposed verdict waits for its window to end or for an operator (decision 011).
 */
export function MarketStatusBadge({ market, nowMs }: { market: Market; nowMs: number }) {
  const { t } = useTranslation();
  if (market.status === 'settling' && market.review) {
    return <Badge tone="brand">{t('markets.status.inReview')}</Badge>;
  }
  const status = marketDisplayStatus(
    { status: market.status, deadline: new Date(market.deadline) },
    new Date(nowMs),
  );
  if (status === 'live') {
    return (
      <Badge tone="yes">
        <LiveDot />
        {t('markets.status.live')}
      </Badge>
    );
  }
  return <Badge tone={status === 'closed' ? 'no' : 'neutral'}>{t(`markets.status.${status}`)}</Badge>;
}
