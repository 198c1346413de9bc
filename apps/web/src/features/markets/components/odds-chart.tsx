import type { Market } from '@pm/core/contract/markets';
import { ChartLine } from 'lucide';
import { useMemo } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { TimeChart } from '#ui/time-chart.tsx';
import { useMarketOdds } from '../api/get-market-odds.ts';
import { formatShare } from '../utils/share.ts';

const CHART_HEIGHT = 200;
/** Odds are drawn on a fixed 0–100 % scale, so a move looks the size it is. */
const PERCENT_RANGE = { min: 0, max: 100 };
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Market odds over time (decision 013): the YES share of the pool after each bet, as steps on a time
 * axis (lightweight-charts, lazy), green above 50 % and red below; the last share holds until now
 * (or the deadline) and the axis runs to the deadline while the market is open.
 */
export function OddsChart({ market, nowMs }: { market: Market; nowMs: number }) {
  const { t, language } = useTranslation();
  const odds = useMarketOdds(market.id);
  const formatValue = useMemo(() => {
    const format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
    return (value: number) => `${format.format(value)}%`;
  }, [language]);
  const deadline = seconds(market.deadline);
  // Minutes are enough to move the held step; a per-second tick would redraw the chart each second.
  const nowMinute = Math.floor(nowMs / 60_000);
  const points = useMemo(() => {
    const drawn = (odds.data?.points ?? []).map((point) => ({
      time: seconds(point.at),
      value: point.yesShareBps / 100,
    }));
    const last = drawn.at(-1);
    const holdUntil = Math.min(nowMinute * 60, deadline);
    if (last && holdUntil > last.time) drawn.push({ time: holdUntil, value: last.value });
    return drawn;
  }, [odds.data, nowMinute, deadline]);
  const current = odds.data?.points.at(-1);

  return (
    <Card className="p-4">
      <section aria-labelledby="odds-title" className="flex flex-col gap-2">
        <h3 id="odds-title" className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={ChartLine} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.odds.title')}
        </h3>
        {odds.isPending ? (
          <Skeleton className="h-[200px] w-full" />
        ) : odds.isError ? (
          <p className="text-xs text-muted">{t('markets.odds.unavailable')}</p>
        ) : !current ? (
          <p className="text-xs text-muted">{t('markets.odds.empty')}</p>
        ) : (
          <TimeChart
            testId="odds-chart"
            label={t('markets.odds.summary', {
              share: formatShare(current.yesShareBps, language),
              count: current.bets,
            })}
            height={CHART_HEIGHT}
            points={points}
            baseline={50}
            valueRange={PERCENT_RANGE}
            steps
            locale={language}
            formatValue={formatValue}
            extendTo={market.status === 'active' ? deadline : null}
          />
        )}
      </section>
    </Card>
  );
}
