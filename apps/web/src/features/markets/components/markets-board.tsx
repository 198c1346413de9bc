import { MARKET_CATEGORIES } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import { canJoinMarket } from '@pm/core/market-rules';
import { Plus, SearchX } from 'lucide';
import { useEffect, useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { type BoardFilter, type CategoryFilter, useOpenMarkets } from '../api/get-markets.ts';
import { mayHavePendingRecords } from '../api/pending-records-key.ts';
import { useMarketsRealtime } from '../hooks/use-markets-realtime.ts';
import { useNowMs } from '../hooks/use-now-ms.ts';
import {
  ClaimablePanel,
  CreateMarketDialog,
  JoinMarketDialog,
  MoreOpenMarkets,
  SettledMarkets,
} from './lazy-parts.tsx';
import { MarketCard } from './market-card.tsx';
import { PreviousPanel } from './previous-panel.tsx';
import { VaultPanel } from './vault-panel.tsx';

const FILTERS: CategoryFilter[] = ['all', ...MARKET_CATEGORIES];

function chipClassName(pressed: boolean) {
  return cx(
    'min-h-10 shrink-0 cursor-pointer rounded-full border px-3 py-1.5 text-sm whitespace-nowrap',
    pressed ? 'border-brand bg-brand text-bg' : 'border-line bg-surface-2 hover:border-line-strong',
  );
}

/** docs/product.md §2 /predictions: chips with counts, the market grid and its states, the side panels. */
export function MarketsBoard({
  createOpen,
  onCreateOpenChange,
}: {
  createOpen: boolean;
  onCreateOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [category, setCategory] = useState<BoardFilter>('all');
  // Issue 11: the Settled chip shows settled markets instead of the open ones.
  const [showSettled, setShowSettled] = useState(false);
  const [joining, setJoining] = useState<Market | null>(null);
  // Issue 21: markets still taking bets on the pages loaded after the first.
  const [moreActive, setMoreActive] = useState(0);
  const markets = useOpenMarkets(category);
  const nowMs = useNowMs();
  useMarketsRealtime();
  useEffect(() => {
    // Paid bets not recorded before the tab closed (issue 3); the retry code loads only when one waits.
    if (mayHavePendingRecords())
      void import('../api/record-payment.ts').then((pending) => pending.retryPendingRecords());
  }, []);
  const counts = markets.data?.counts ?? {};
  // docs/product.md §2 footer "count of active bets": "bets" are markets throughout the spec, so it counts the
  // listed markets still taking bets (spec-conformance 5.7), not the individual bets placed on them.
  const isActive = (market: Market) =>
    canJoinMarket({ status: market.status, deadline: new Date(market.deadline) }, new Date(nowMs));
  const activeMarkets = (markets.data?.markets ?? []).filter(isActive).length + moreActive;
  const choose = (filter: BoardFilter) => {
    setCategory(filter);
    setShowSettled(false);
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_320px]">
      <div className="flex min-w-0 flex-col gap-4">
        <fieldset className="flex min-w-0 gap-2 overflow-x-auto pb-1">
          <legend className="sr-only">{t('markets.filter')}</legend>
          {FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              aria-pressed={!showSettled && category === filter}
              onClick={() => choose(filter)}
              className={chipClassName(!showSettled && category === filter)}
            >
              {t(`markets.categories.${filter}`)}{' '}
              <span className="tabular-nums">({counts[filter] ?? 0})</span>
            </button>
          ))}
          {/* Issue 19: Price Oracle markets only (betType=price_prediction). */}
          <button
            type="button"
            aria-pressed={!showSettled && category === 'price'}
            onClick={() => choose('price')}
            className={chipClassName(!showSettled && category === 'price')}
          >
            {t('markets.filterPrice')}
          </button>
          <button
            type="button"
            aria-pressed={showSettled}
            onClick={() => setShowSettled(true)}
            onPointerEnter={SettledMarkets.preload}
            onFocus={SettledMarkets.preload}
            className={chipClassName(showSettled)}
          >
            {t('markets.settled.chip')}
          </button>
        </fieldset>
        {showSettled ? (
          // Settled markets take no bets: their cards show no Join button.
          <SettledMarkets
            renderCard={(market) => <MarketCard market={market} nowMs={nowMs} onJoin={setJoining} />}
          />
        ) : markets.isPending ? (
          <div aria-busy="true" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {[0, 1, 2, 3].map((key) => (
              <Skeleton key={key} className="h-56 w-full" />
            ))}
          </div>
        ) : markets.isError ? (
          <LoadFailed query={markets}>{t('markets.loadFailed')}</LoadFailed>
        ) : markets.data.markets.length === 0 ? (
          <Card>
            <StatusMessage
              icon={<Icon node={SearchX} />}
              action={
                <Button
                  onClick={() => onCreateOpenChange(true)}
                  onPointerEnter={CreateMarketDialog.preload}
                  onFocus={CreateMarketDialog.preload}
                >
                  <Icon node={Plus} aria-hidden="true" className="size-4" />
                  {t('markets.createBet')}
                </Button>
              }
            >
              <strong className="block text-fg">{t('markets.empty')}</strong>
              {t('markets.emptyHint')}
            </StatusMessage>
          </Card>
        ) : (
          <ul aria-label={t('markets.listLabel')} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {markets.data.markets.map((market) => (
              <li key={market.id}>
                <MarketCard market={market} nowMs={nowMs} onJoin={setJoining} />
              </li>
            ))}
            {markets.data.nextCursor && (
              <MoreOpenMarkets
                key={category}
                filter={category}
                cursor={markets.data.nextCursor}
                renderCard={(market) => <MarketCard market={market} nowMs={nowMs} onJoin={setJoining} />}
                isActive={isActive}
                onActive={setMoreActive}
              />
            )}
          </ul>
        )}
        <footer className="text-sm text-muted tabular-nums">
          {t('markets.footer', { count: activeMarkets })}
        </footer>
      </div>
      <aside className="flex flex-col gap-4">
        <VaultPanel />
        <ClaimablePanel />
        <PreviousPanel />
      </aside>
      <CreateMarketDialog open={createOpen} onOpenChange={onCreateOpenChange} />
      <JoinMarketDialog market={joining} onClose={() => setJoining(null)} />
    </div>
  );
}
