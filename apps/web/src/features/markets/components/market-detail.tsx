import { shortenAddress } from '@pm/core/address';
import type { Market } from '@pm/core/contract/markets';
import { canJoinMarket, favourability } from '@pm/core/market-rules';
import { CircleAlert, Info, Scale, Users } from 'lucide';
import { Suspense, useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { ApiError } from '#lib/api-client.ts';
import { useFormat } from '#lib/use-format.ts';
import { priceTitleTerms, useMarketTitle } from '#lib/use-market-title.ts';
import { useNowMs } from '#lib/use-now-ms.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { useMarket } from '../api/get-market.ts';
import { useMarketsRealtime } from '../hooks/use-markets-realtime.ts';
import { HowResolutionWorks } from './how-resolution-works.tsx';
import { isOperatorJudged, JudgeBadge } from './judge-badge.tsx';
import { ClaimablePanel, JoinMarketDialog, MyWinnings, OlderBets } from './lazy-parts.tsx';
import type { MarketParts } from './market-parts.ts';
import { MarketStatusBadge } from './market-status-badge.tsx';
import { OddsChart } from './odds-chart.tsx';
import { SidePanel } from './side-panel.tsx';

/**
 * docs/product.md §2 /market/{id}: banner, badges, tiles, YES and NO panels, side cards; live via
 * realtime. `parts` are what it shows of other features (market-parts.ts).
 */
export function MarketDetail({ marketId, parts }: { marketId: string; parts: MarketParts }) {
  const {
    EvidenceSection,
    MarketOperatorControls,
    MarketReviewPanel,
    PriceMarketAnalysis,
    PriceMarketDescription,
    PriceMarketPanel,
    PriceResolutionCard,
  } = parts;
  const { t } = useTranslation();
  const format = useFormat();
  const id = Number(marketId);
  const detail = useMarket(Number.isSafeInteger(id) && id > 0 ? id : 0);
  const nowMs = useNowMs();
  const wallet = useWallet();
  // A hook, so before the early returns: the market may not be there yet.
  const loaded = detail.data?.market;
  const title = useMarketTitle(loaded?.title ?? '', loaded ? priceTitleTerms(loaded) : null);
  const [joining, setJoining] = useState<Market | null>(null);
  // The bets after the first page, once asked for.
  const [older, setOlder] = useState(false);
  useMarketsRealtime();

  if (detail.isPending) return <Skeleton className="h-96 w-full" />;
  if (detail.isError) {
    const notFound =
      detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <Card>
        <StatusMessage tone="error" icon={<Icon node={CircleAlert} />}>
          {notFound ? t('markets.detail.notFound') : t('markets.detail.loadFailed')}
        </StatusMessage>
      </Card>
    );
  }
  const { market, bets, betsNextCursor, participants, timeline = [], evidence = null } = detail.data;
  const pool = BigInt(market.totalYesWei) + BigInt(market.totalNoWei);
  const split = favourability(BigInt(market.totalYesWei), BigInt(market.totalNoWei));
  const canJoin = canJoinMarket(
    { status: market.status, deadline: new Date(market.deadline) },
    new Date(nowMs),
  );
  const isPrice = market.betType === 'price_prediction';

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_320px]">
      <div className="flex min-w-0 flex-col gap-4">
        {market.status === 'settled' && (
          <Card className="p-4">
            <section
              aria-label={t(isPrice ? 'markets.detail.priceAnalysis' : 'markets.detail.analysis')}
              className="flex flex-col gap-2"
            >
              <p className="text-lg font-bold">
                {market.result === 'VOID'
                  ? t('markets.detail.voided')
                  : t('markets.detail.settled', { result: market.result ?? '' })}
              </p>
              {market.aiConfidence !== null && (
                <p className="text-sm text-muted">
                  {t('markets.detail.confidence', { confidence: market.aiConfidence })}
                </p>
              )}
              {isPrice ? (
                <p className="text-sm" data-testid="market-analysis">
                  <Suspense fallback={<Skeleton className="h-5 w-full" />}>
                    <PriceMarketAnalysis market={market} />
                  </Suspense>
                </p>
              ) : (
                market.aiVerdict && <p className="text-sm">{market.aiVerdict}</p>
              )}
              {wallet.address && <MyWinnings marketId={market.id} address={wallet.address} />}
            </section>
          </Card>
        )}
        <MarketReviewPanel
          market={market}
          timeline={timeline}
          nowMs={nowMs}
          priceAnalysis={<PriceMarketAnalysis market={market} />}
        />
        {evidence && <EvidenceSection evidence={evidence} />}
        <div className="flex flex-wrap items-center gap-2">
          <MarketStatusBadge market={market} nowMs={nowMs} />
          <Badge>{t(`markets.categories.${market.category}`)}</Badge>
          <JudgeBadge market={market} />
          {market.status === 'settling' && !market.review && <Badge>{t('markets.detail.awaiting')}</Badge>}
        </div>
        <h2 className="text-xl font-bold break-words">{title}</h2>
        <p className="whitespace-pre-wrap break-words text-sm text-muted" data-testid="market-description">
          {isPrice ? (
            <Suspense fallback={<Skeleton className="h-10 w-full" />}>
              <PriceMarketDescription market={market} />
            </Suspense>
          ) : (
            market.description
          )}
        </p>
        {/* What decides the market is part of what a bettor sees before paying. */}
        <section
          hidden={isPrice}
          aria-labelledby="criteria-title"
          className="flex flex-col gap-1 rounded-lg border border-brand/40 bg-surface p-3"
        >
          <h3 id="criteria-title" className="flex items-center gap-2 text-sm font-semibold">
            <Icon node={Scale} aria-hidden="true" className="size-4 text-brand" />
            {t('markets.detail.criteriaTitle')}
          </h3>
          <p className="whitespace-pre-wrap break-words text-sm">
            {market.resolutionInstructions?.trim()
              ? market.resolutionInstructions
              : t('markets.detail.criteriaNone')}
          </p>
          <p className="text-xs text-muted">{t('markets.detail.criteriaHint')}</p>
        </section>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[
            [t('markets.detail.totalPool'), format.bnb(pool)],
            [t('markets.detail.participants'), String(participants)],
            [t('markets.detail.deadline'), format.dateTime(market.deadline)],
            [t('markets.detail.created'), format.dateTime(market.createdAt)],
          ].map(([label, value]) => (
            <div key={label} className="rounded-lg border border-line bg-surface p-3">
              <dt className="text-xs text-muted">{label}</dt>
              <dd className="font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <div>
          <div
            role="img"
            aria-label={t('markets.detail.split', { yes: split.yesPercent, no: split.noPercent })}
            className="flex h-3 overflow-hidden rounded-full bg-surface-2"
          >
            <div
              className="bg-yes transition-[width] duration-500"
              style={{ width: `${split.yesPercent}%` }}
            />
            <div className="bg-no transition-[width] duration-500" style={{ width: `${split.noPercent}%` }} />
          </div>
        </div>
        {isPrice && <PriceMarketPanel market={market} />}
        <OddsChart market={market} nowMs={nowMs} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {(['YES', 'NO'] as const).map((side) => (
            <SidePanel
              key={side}
              side={side}
              market={market}
              bets={bets.filter((bet) => bet.prediction === side)}
              percent={side === 'YES' ? split.yesPercent : split.noPercent}
              canJoin={canJoin}
              onJoin={() => setJoining(market)}
            />
          ))}
        </div>
        {betsNextCursor &&
          (older ? (
            <OlderBets marketId={market.id} cursor={betsNextCursor} />
          ) : (
            <Button
              variant="outline"
              className="self-center"
              onClick={() => setOlder(true)}
              onPointerEnter={OlderBets.preload}
              onFocus={OlderBets.preload}
            >
              {t('markets.detail.moreBets')}
            </Button>
          ))}
      </div>
      <aside className="flex flex-col gap-4">
        <ClaimablePanel />
        <MarketOperatorControls market={market} nowMs={nowMs} />
        <Card className="p-4">
          <section aria-labelledby="info-title" className="flex flex-col gap-2 text-sm">
            <h2 id="info-title" className="flex items-center gap-2 font-semibold text-muted">
              <Icon node={Info} aria-hidden="true" className="size-4 text-brand" />
              {t('markets.detail.info')}
            </h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted">{t('markets.detail.id')}</dt>
              <dd className="tabular-nums">#{market.id}</dd>
              <dt className="text-muted">{t('markets.detail.creatorLabel')}</dt>
              <dd className="font-mono text-xs">{shortenAddress(market.creatorAddress)}</dd>
              <dt className="text-muted">{t('markets.detail.type')}</dt>
              <dd>
                {market.betType === 'price_prediction'
                  ? t('markets.create.priceOracle')
                  : t('markets.create.custom')}
              </dd>
              <dt className="text-muted">{t('markets.detail.category')}</dt>
              <dd>{t(`markets.categories.${market.category}`)}</dd>
            </dl>
          </section>
        </Card>
        {/* A price market is decided by the feed; the judge's card is for custom markets. */}
        {isPrice ? (
          <PriceResolutionCard />
        ) : (
          <HowResolutionWorks market={market} operatorJudged={isOperatorJudged(market)} />
        )}
        <Card className="p-4">
          <section aria-labelledby="summary-title" className="flex flex-col gap-2 text-sm">
            <h2 id="summary-title" className="flex items-center gap-2 font-semibold text-muted">
              <Icon node={Users} aria-hidden="true" className="size-4 text-brand" />
              {t('markets.detail.summary')}
            </h2>
            <p className="tabular-nums">
              {t('markets.detail.yesBets')}: {market.yesCount} · {t('markets.detail.noBets')}:{' '}
              {market.noCount}
            </p>
          </section>
        </Card>
      </aside>
      <JoinMarketDialog
        market={joining}
        onClose={() => setJoining(null)}
        PriceMarketDescription={PriceMarketDescription}
      />
    </div>
  );
}
