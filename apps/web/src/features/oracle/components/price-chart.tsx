import type { Round } from '@pm/core/contract/oracle';
import { parseUsdPrice } from '@pm/core/price';
import { useMemo } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { formatUsd } from '#lib/use-format.ts';
import { TimeChart } from '#ui/time-chart.tsx';

const USD_SCALE = 1e8;
const CHART_HEIGHT = 176;

/** A scaled USD price as a number, for drawing only (money maths stays on the bigint). */
const usdValue = (usd: string) => Number(parseUsdPrice(usd)) / USD_SCALE;
const seconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * The last hour of BNB/USD on a time axis with a price scale (lightweight-charts, lazy),
 * the current round's lock price as a dashed line, its lock and close times as marks; the line is
 * green above the lock price (or the hour's first price) and red below. Times in the visitor's
 * time zone and language.
 */
export function PriceChart({
  points,
  round,
}: {
  points: Array<{ usd: string; at: string }>;
  round: Pick<Round, 'lockTime' | 'closeTime' | 'lockPrice'> | null;
}) {
  const { t, language } = useTranslation();
  const formatValue = useMemo(() => {
    const format = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' });
    return (value: number) => format.format(value);
  }, [language]);
  const series = useMemo(
    () => points.map((point) => ({ time: seconds(point.at), value: usdValue(point.usd) })),
    [points],
  );
  const lockPrice = round?.lockPrice ?? null;
  const priceLine = useMemo(
    () =>
      lockPrice === null
        ? null
        : {
            value: usdValue(lockPrice),
            // The axis label beside the line gives the price, the text below the chart says what it is.
            title: '',
          },
    [lockPrice],
  );
  const lockTime = round?.lockTime;
  const closeTime = round?.closeTime;
  const marks = useMemo(
    () =>
      lockTime && closeTime
        ? [
            { time: seconds(lockTime), text: t('oracle.price.lockMark') },
            { time: seconds(closeTime), text: t('oracle.price.closeMark') },
          ]
        : [],
    [lockTime, closeTime, t],
  );

  const last = points.at(-1);
  if (points.length < 2 || !last) return <p className="text-xs text-muted">{t('oracle.price.noHistory')}</p>;
  const first = series[0]?.value ?? 0;
  const summary = [
    t('oracle.price.chartSummary', { price: formatUsd(last.usd, { language }) }),
    lockPrice === null ? null : t('oracle.price.lockLine', { price: formatUsd(lockPrice, { language }) }),
  ]
    .filter(Boolean)
    .join('. ');

  const time = new Intl.DateTimeFormat(language, { timeStyle: 'medium' });
  return (
    <div className="flex flex-col gap-1">
      <TimeChart
        testId="price-chart"
        label={summary}
        height={CHART_HEIGHT}
        points={series}
        baseline={priceLine?.value ?? first}
        locale={language}
        formatValue={formatValue}
        priceLine={priceLine}
        marks={marks}
        extendTo={closeTime ? seconds(closeTime) : null}
      />
      {round && (
        <p className="text-xs text-muted tabular-nums" data-testid="round-times">
          {t('oracle.price.roundTimes', {
            lock: time.format(Date.parse(round.lockTime)),
            close: time.format(Date.parse(round.closeTime)),
          })}
          {lockPrice !== null &&
            ` · ${t('oracle.price.lockLine', { price: formatUsd(lockPrice, { language }) })}`}
        </p>
      )}
    </div>
  );
}
