import { CircleAlert, SearchX } from 'lucide';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { Button } from '../../../ui/button.tsx';
import { Card } from '../../../ui/card.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Skeleton } from '../../../ui/skeleton.tsx';
import { StatusMessage } from '../../../ui/status-message.tsx';
import { useSettledMarketPages } from '../api/get-settled-markets.ts';
import { MarketCard } from './market-card.tsx';

/**
 * Issue 11: settled markets browsable from /predictions, newest settled first, a page at a time
 * (the list endpoint's cursor), each card with its verdict badge and the AI's confidence. Loaded
 * when the Settled chip is first chosen (lazy-parts.tsx).
 */
export function SettledMarkets({ nowMs }: { nowMs: number }) {
  const { t } = useTranslation();
  const settled = useSettledMarketPages();
  if (settled.isPending) {
    return (
      <div aria-busy="true" className="grid gap-4 sm:grid-cols-2">
        {[0, 1].map((key) => (
          <Skeleton key={key} className="h-56 w-full" />
        ))}
      </div>
    );
  }
  if (settled.isError) {
    return (
      <Card>
        <StatusMessage
          tone="error"
          icon={<Icon node={CircleAlert} />}
          action={
            <Button variant="outline" onClick={() => void settled.refetch()}>
              {t('markets.retry')}
            </Button>
          }
        >
          {t('markets.loadFailed')}
        </StatusMessage>
      </Card>
    );
  }
  const markets = settled.data.pages.flatMap((page) => page.markets);
  if (markets.length === 0) {
    return (
      <Card>
        <StatusMessage icon={<Icon node={SearchX} />}>{t('markets.settled.empty')}</StatusMessage>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label={t('markets.settled.listLabel')} className="grid gap-4 sm:grid-cols-2">
        {markets.map((market) => (
          <li key={market.id}>
            {/* Settled markets take no bets: the card shows no Join button. */}
            <MarketCard market={market} nowMs={nowMs} onJoin={() => undefined} />
          </li>
        ))}
      </ul>
      {settled.hasNextPage && (
        <Button
          variant="outline"
          className="self-center"
          disabled={settled.isFetchingNextPage}
          onClick={() => void settled.fetchNextPage()}
        >
          {t('markets.settled.more')}
        </Button>
      )}
    </div>
  );
}
