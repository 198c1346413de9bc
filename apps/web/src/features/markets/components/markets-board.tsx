import { MARKET_CATEGORIES } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import { canJoinMarket } from '@pm/core/market-rules';
import { SearchX } from 'lucide';
import { type ReactNode, useEffect, useState } from 'react';
import { mayHavePendingRecords } from '#api/pending-records-key.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { useNowMs } from '#lib/use-now-ms.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { type BoardFilter, type CategoryFilter, useOpenMarkets } from '../api/get-markets.ts';
import { useMarketsRealtime } from '../hooks/use-markets-realtime.ts';
import { ClaimablePanel, JoinMarketDialog, MoreOpenMarkets, SettledMarkets } from './lazy-parts.tsx';
import { MarketCard } from './market-card.tsx';
import type { BoardParts } from './market-parts.ts';
import { PreviousPanel } from './previous-panel.tsx';
import { VaultPanel } from './vault-panel.tsx';

const FILTERS: CategoryFilter[] = ['all', ...MARKET_CATEGORIES];

function chipClassName(pressed: boolean) {
  return cx(
    'min-h-10 shrink-0 cursor-pointer rounded-full border px-3 py-1.5 text-sm whitespace-nowrap',
    pressed ? 'border-brand bg-brand text-bg' : 'border-line bg-surface-2 hover:border-line-strong',
  );
}

/**
 * docs/product.md §2 /predictions: chips with counts, the market grid and its states, the side panels.
 * `createAction` is the route's Create Bet button, offered again when no market is listed; `parts`
 * are what the board shows of other features (market-parts.ts).
 */
export function MarketsBoard({ createAction, parts }: { createAction: ReactNode; parts: BoardParts }) {
  const { t } = useTranslation();
  const [category, setCategory] = useState<BoardFilter>('all');
  // The Settled chip shows settled markets instead of the open ones.
  const [showSettled, setShowSettled] = useState(false);
  const [joining, setJoining] = useState<Market | null>(null);
  // Markets still taking bets on the pages loaded after the first.
  const [moreActive, setMoreActive] = useState(0);
  const markets = useOpenMarkets(category);
  const nowMs = useNowMs();
  useMarketsRealtime();
  useEffect(() => {
    // Paid bets not recorded before the tab closed; the retry code loads only when one waits.
    if (mayHavePendingRecords())
      void import('#api/record-payment.ts').then((pending) => pending.retryPendingRecords());
  }, []);
  const counts = markets.data?.counts ?? {};
  // docs/product.md §2 footer "count of active bets": "bets" are markets throughout the spec, so it counts the
  // listed markets still taking bets (spec-conformance 5.7), not the individual bets placed on them.
  const isActive = (market: Market) =>
    canJoinMarket({ status: market.status, deadline: new Date(market.deadline) }, new Date(nowMs));
  const activeMarkets = (markets.data?.markets ?? []).filter(isActive).length + moreActive;
  const card = (market: Market) => (
    <MarketCard market={market} nowMs={nowMs} onJoin={setJoining} PriceCardFacts={parts.PriceCardFacts} />
  );
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
          {/* Price Oracle markets only (betType=price_prediction). */}
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
          <SettledMarkets renderCard={card} />
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
            <StatusMessage icon={<Icon node={SearchX} />} action={createAction}>
              <strong className="block text-fg">{t('markets.empty')}</strong>
              {t('markets.emptyHint')}
            </StatusMessage>
          </Card>
        ) : (
          <ul aria-label={t('markets.listLabel')} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {markets.data.markets.map((market) => (
              <li key={market.id}>{card(market)}</li>
            ))}
            {markets.data.nextCursor && (
              <MoreOpenMarkets
                key={category}
                filter={category}
                cursor={markets.data.nextCursor}
                renderCard={card}
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
      <JoinMarketDialog
        market={joining}
        onClose={() => setJoining(null)}
        PriceMarketDescription={parts.PriceMarketDescription}
      />
    </div>
  );
}
