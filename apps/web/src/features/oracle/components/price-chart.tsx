import { parseUsdPrice } from '@pm/core/price';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { useFormat } from '../../../lib/format.ts';

const WIDTH = 320;
const HEIGHT = 96;
const PAD = 4;

/**
 * The last hour of BNB/USD as a small SVG line, with the current round's lock price as a dashed
 * line. No chart library: ~120 points are a polyline.
 */
export function PriceChart({
  points,
  lockPrice,
}: {
  points: Array<{ usd: string; at: string }>;
  lockPrice: string | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  if (points.length < 2) return <p className="text-xs text-muted">{t('oracle.price.noHistory')}</p>;

  const values = points.map((point) => Number(parseUsdPrice(point.usd)));
  const times = points.map((point) => Date.parse(point.at));
  const lock = lockPrice === null ? null : Number(parseUsdPrice(lockPrice));
  const low = Math.min(...values, ...(lock === null ? [] : [lock]));
  const high = Math.max(...values, ...(lock === null ? [] : [lock]));
  const span = high - low || 1;
  const first = times[0] ?? 0;
  const duration = (times.at(-1) ?? first) - first || 1;
  const x = (time: number) => PAD + ((time - first) / duration) * (WIDTH - 2 * PAD);
  const y = (value: number) => HEIGHT - PAD - ((value - low) / span) * (HEIGHT - 2 * PAD);
  const line = values
    .map((value, i) => `${x(times[i] ?? first).toFixed(1)},${y(value).toFixed(1)}`)
    .join(' ');
  const rising = (values.at(-1) ?? 0) >= (values[0] ?? 0);

  return (
    <svg
      role="img"
      aria-label={t('oracle.price.chartLabel')}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      className="h-24 w-full"
    >
      {lock !== null && (
        <g data-testid="lock-price-line">
          <line
            x1={PAD}
            x2={WIDTH - PAD}
            y1={y(lock)}
            y2={y(lock)}
            className="stroke-brand"
            strokeDasharray="4 4"
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
          <title>{t('oracle.price.lockLine', { price: format.price(lockPrice ?? '0') })}</title>
        </g>
      )}
      <polyline
        points={line}
        fill="none"
        className={rising ? 'stroke-yes' : 'stroke-no'}
        strokeWidth={2}
        strokeLinejoin="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
