import type { Market } from '@pm/core/contract/markets';
import { canJoinMarket } from '@pm/core/market-rules';
import { yesShareBps } from '@pm/core/yes-share';
import { Clock, Users } from 'lucide';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { formatCountdown, useFormat } from '#lib/use-format.ts';
import { priceTitleTerms, useMarketTitle } from '#lib/use-market-title.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { formatShare } from '../utils/share.ts';
import { JoinMarketDialog } from './lazy-parts.tsx';
import type { BoardParts } from './market-parts.ts';
import { MarketStatusBadge } from './market-status-badge.tsx';

/** docs/product.md §2 market card; the whole card links to /market/:id, Join Bet is its own button. */
export function MarketCard({
  market,
  nowMs,
  onJoin,
  PriceCardFacts,
}: {
  market: Market;
  nowMs: number;
  onJoin: (market: Market) => void;
} & Pick<BoardParts, 'PriceCardFacts'>) {
  const { t, language } = useTranslation();
  const format = useFormat();
  const title = useMarketTitle(market.title, priceTitleTerms(market));
  const yesWei = BigInt(market.totalYesWei);
  const noWei = BigInt(market.totalNoWei);
  const pool = yesWei + noWei;
  const yesShare = yesShareBps(yesWei, noWei);
  const bets = market.yesCount + market.noCount;
  const live = canJoinMarket({ status: market.status, deadline: new Date(market.deadline) }, new Date(nowMs));
  return (
    <article className="relative flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 transition-colors focus-within:border-brand hover:border-line-strong">
      <div className="flex items-center justify-between gap-2">
        <Badge>{t(`markets.categories.${market.category}`)}</Badge>
        <MarketStatusBadge market={market} nowMs={nowMs} />
      </div>
      <h2 className="text-base font-semibold leading-snug wrap-anywhere">
        <Link to={`/market/${market.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
          {title}
        </Link>
      </h2>
      {market.betType === 'price_prediction' && <PriceCardFacts market={market} />}
      <dl className="grid grid-cols-2 gap-2 text-xs">
        <div>
          <dt className="text-muted">{t('markets.card.started')}</dt>
          <dd className="tabular-nums">{format.dateTime(market.startTime)}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('markets.card.deadline')}</dt>
          <dd className="tabular-nums">{format.dateTime(market.deadline)}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('markets.card.pool')}</dt>
          <dd className="font-semibold tabular-nums">{format.bnb(pool)}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('markets.card.yesShare')}</dt>
          <dd
            data-testid="yes-share"
            className={cx(
              'font-semibold tabular-nums',
              yesShare !== null && (yesShare >= 5_000 ? 'text-yes' : 'text-no'),
            )}
          >
            {yesShare === null
              ? '—'
              : t('markets.card.yesShareValue', { share: formatShare(yesShare, language) })}
          </dd>
        </div>
        <div>
          <dt className="flex items-center gap-1 text-muted">
            <Icon node={Users} aria-hidden="true" className="size-3" />
            {t('markets.card.bets', { count: bets })}
          </dt>
          {live && (
            <dd className="flex items-center gap-1 tabular-nums">
              <Icon node={Clock} aria-hidden="true" className="size-3 text-brand" />
              <span className="sr-only">{t('markets.card.timeLeft')}</span>
              {formatCountdown((Date.parse(market.deadline) - nowMs) / 1000)}
            </dd>
          )}
        </div>
      </dl>
      {market.status === 'settled' && (
        <p className="flex flex-wrap items-center gap-2 text-sm font-semibold">
          <Badge
            data-testid="verdict-badge"
            tone={market.result === 'YES' ? 'yes' : market.result === 'NO' ? 'no' : 'neutral'}
          >
            {market.result ?? 'VOID'}
          </Badge>
          {market.result === 'VOID' || market.result === null
            ? t('markets.card.void')
            : market.betType === 'price_prediction'
              ? t('markets.card.feedVerdict', { result: market.result })
              : t('markets.card.verdict', { result: market.result, confidence: market.aiConfidence ?? '—' })}
        </p>
      )}
      {live && (
        <Button
          className="relative z-10"
          onClick={() => onJoin(market)}
          onPointerEnter={JoinMarketDialog.preload}
          onFocus={JoinMarketDialog.preload}
        >
          {t('markets.card.joinBet')}
        </Button>
      )}
    </article>
  );
}
