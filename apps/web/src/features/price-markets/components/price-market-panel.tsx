import type { PriceSymbol } from '@pm/core/constants';
import { explorerAddressUrl } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import { parseUsdPrice } from '@pm/core/price';
import { ChartLine, ExternalLink, Gavel, Scale } from 'lucide';
import { useMemo } from 'react';
import { useAppConfig } from '#api/get-app-config.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { TimeChart } from '#ui/time-chart.tsx';
import { useCoinPrice } from '../api/get-coin-price.ts';
import { useCoinPriceHistory } from '../api/get-coin-price-history.ts';
import { asPriceSymbol } from './coin-icon.tsx';

const CHART_HEIGHT = 200;
const USD_SCALE = 1e8;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A sample a little after the reading still belongs to the market's period. */
const SLACK_S = 60;

/** A scaled USD price as a number, for drawing only (the comparisons stay on the bigint). */
const usdValue = (usd: string) => Number(parseUsdPrice(usd)) / USD_SCALE;
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A price market's page section: the coin's price since the market opened with the
 * target as a dashed line and the start marked, then how it settles: the feed's reading once
 * settled (price, round id, time, the feed itself) and the rule in one sentence.
 */
export function PriceMarketPanel({ market }: { market: Market }) {
  useNamespace('price');
  const { t } = useTranslation();
  const format = useFormat();
  const { data: config } = useAppConfig();
  const symbol = asPriceSymbol(market.targetSymbol);
  if (!symbol || !market.targetPrice || !market.comparisonType) return null;
  const target = format.usd(market.targetPrice);
  const feed = market.priceFeed ?? null;
  return (
    <>
      <PriceHistoryChart market={market} symbol={symbol} />
      <Card className="p-4">
        <section
          aria-labelledby="settlement-title"
          className="flex flex-col gap-2 text-sm"
          data-testid="settlement"
        >
          <h3 id="settlement-title" className="flex items-center gap-2 font-semibold">
            <Icon node={Scale} aria-hidden="true" className="size-4 text-brand" />
            {t('price.settlement.title')}
          </h3>
          <p>
            {t(
              market.comparisonType === 'above' ? 'price.settlement.ruleAbove' : 'price.settlement.ruleBelow',
              {
                symbol,
                target,
              },
            )}
          </p>
          {market.settlementPrice ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted">{t('price.settlement.price')}</dt>
              <dd className="font-semibold tabular-nums" data-testid="settlement-price">
                {format.price(market.settlementPrice)}
              </dd>
              {market.settlementRoundId && (
                <>
                  <dt className="text-muted">{t('price.settlement.roundId')}</dt>
                  <dd className="break-all font-mono text-xs">{market.settlementRoundId}</dd>
                </>
              )}
              {market.settlementUpdatedAt && (
                <>
                  <dt className="text-muted">{t('price.settlement.updatedAt')}</dt>
                  <dd className="tabular-nums">{format.dateTime(market.settlementUpdatedAt)}</dd>
                </>
              )}
            </dl>
          ) : (
            market.status !== 'settled' && (
              <p className="text-xs text-muted">{t('price.settlement.pending')}</p>
            )
          )}
          {feed && (
            <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
              <span>{t('price.settlement.feed')}:</span>
              <code className="break-all">{feed}</code>
              {ADDRESS.test(feed) && (
                <a
                  href={explorerAddressUrl(config.chainId, feed)}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 text-brand underline"
                >
                  {t('price.settlement.viewFeed')}
                  <Icon node={ExternalLink} aria-hidden="true" className="size-3" />
                </a>
              )}
            </p>
          )}
        </section>
      </Card>
    </>
  );
}

function PriceHistoryChart({ market, symbol }: { market: Market; symbol: PriceSymbol }) {
  const { t, language } = useTranslation();
  const format = useFormat();
  const open = market.status !== 'settled';
  const history = useCoinPriceHistory(symbol, market.createdAt, open);
  const formatValue = useMemo(() => {
    const usd = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
    return (value: number) => usd.format(value);
  }, [language]);
  // The history reaches to now: a closed market's line stops at its settlement reading, which ends
  // it; an open one's ends at the coin's live price (only this coin's, never another's).
  const settledAt = open ? null : (market.settlementUpdatedAt ?? null);
  const settledUsd = settledAt ? (market.settlementPrice ?? null) : null;
  const until = open
    ? Number.POSITIVE_INFINITY
    : settledAt && settledUsd
      ? seconds(settledAt) - 1
      : seconds(market.deadline) + SLACK_S;
  // The feed's price at creation starts the line: a new market has a line before its first stored
  // sample (the history keeps one per 30 s).
  const live = useCoinPrice(open ? symbol : null).data;
  const endUsd = open ? (live?.symbol === symbol ? live.usd : null) : settledUsd;
  const endAt = open ? (live?.updatedAt ?? null) : settledAt;
  const samples = useMemo(
    () =>
      withEnds(
        (history.data?.points ?? []).filter((point) => seconds(point.at) <= until),
        market.startPrice ? { usd: market.startPrice, at: market.startTime } : null,
        endUsd && endAt ? { usd: endUsd, at: endAt } : null,
      ),
    [history.data, until, market.startPrice, market.startTime, endUsd, endAt],
  );
  const points = useMemo(
    () => samples.map((point) => ({ time: seconds(point.at), value: usdValue(point.usd) })),
    [samples],
  );
  const targetPrice = market.targetPrice ?? '0';
  const priceLine = useMemo(() => ({ value: usdValue(targetPrice), title: '' }), [targetPrice]);
  const startText = t('price.chart.startMark');
  const startTime = seconds(market.startTime);
  const marks = useMemo(() => [{ time: startTime, text: startText }], [startTime, startText]);
  const last = samples.at(-1);
  const target = format.usd(targetPrice);
  return (
    <Card className="p-4">
      <section aria-labelledby="price-history-title" className="flex flex-col gap-2">
        <h3 id="price-history-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={ChartLine} aria-hidden="true" className="size-4 text-brand" />
          {t('price.chart.title', { symbol })}
        </h3>
        {history.isPending ? (
          <Skeleton className="h-[200px] w-full" />
        ) : history.isError ? (
          <p className="text-xs text-muted">{t('price.chart.unavailable')}</p>
        ) : points.length < 2 || !last ? (
          <p className="text-xs text-muted">{t('price.chart.empty')}</p>
        ) : (
          <TimeChart
            testId="market-price-chart"
            label={t(open ? 'price.chart.summary' : 'price.chart.summarySettled', {
              symbol,
              price: format.price(last.usd),
              target,
            })}
            height={CHART_HEIGHT}
            points={points}
            baseline={priceLine.value}
            locale={language}
            formatValue={formatValue}
            priceLine={priceLine}
            marks={marks}
            extendTo={open ? seconds(market.deadline) : null}
          />
        )}
        <p className="text-xs text-muted tabular-nums">
          {t('price.chart.legend', {
            target,
            start: market.startPrice ? format.price(market.startPrice) : '—',
          })}
        </p>
      </section>
    </Card>
  );
}

type Sample = { usd: string; at: string };

/**
 * The samples in time order, one per second (the chart needs strictly increasing times), with the
 * start before them and the end (live price or settlement reading) after them when it is later.
 */
function withEnds(samples: Sample[], start: Sample | null, end: Sample | null): Sample[] {
  const bySecond = new Map<number, Sample>();
  for (const sample of [...(start ? [start] : []), ...samples]) bySecond.set(seconds(sample.at), sample);
  const sorted = [...bySecond.entries()].sort(([a], [b]) => a - b);
  const lastSecond = sorted.at(-1)?.[0] ?? Number.NEGATIVE_INFINITY;
  if (end && seconds(end.at) > lastSecond) sorted.push([seconds(end.at), end]);
  return sorted.map(([, sample]) => sample);
}

/** "How resolution works" for a price market (decision 020): the feed decides, not a judge. */
export function PriceResolutionCard() {
  useNamespace('price');
  const { t } = useTranslation();
  return (
    <Card className="p-4">
      <section aria-labelledby="price-how-title" className="flex flex-col gap-2 text-sm">
        <h2 id="price-how-title" className="flex items-center gap-2 font-semibold text-muted">
          <Icon node={Gavel} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.detail.howTitle')}
        </h2>
        <p>{t('price.how')}</p>
      </section>
    </Card>
  );
}
