import {
  type BaselineData,
  BaselineSeries,
  type BaselineSeriesPartialOptions,
  ColorType,
  CrosshairMode,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  LineStyle,
  LineType,
  TickMarkType,
  type Time,
  type UTCTimestamp,
  type WhitespaceData,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import type { TimeChartPoint, TimeChartProps } from './time-chart-props.ts';

// The lightweight-charts side of TimeChart, loaded lazily (ui/time-chart.tsx). The library draws
// in UTC; the formatters below show every time in the visitor's own time zone and language.

/** The theme's colours (index.css), read once the page's CSS is there: a canvas needs values. */
function themeColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

const asTime = (seconds: number) => seconds as UTCTimestamp;
const timeOf = (time: Time) => (typeof time === 'number' ? time * 1000 : Date.parse(String(time)));

/** Strictly ascending, one value per second (the library's rule): the last value of a second wins. */
export function toSeriesData(points: TimeChartPoint[], extendTo: number | null | undefined) {
  const bySecond = new Map<number, number>();
  for (const point of [...points].sort((a, b) => a.time - b.time)) {
    bySecond.set(Math.floor(point.time), point.value);
  }
  const data: Array<BaselineData<Time> | WhitespaceData<Time>> = [...bySecond].map(([time, value]) => ({
    time: asTime(time),
    value,
  }));
  const last = data.at(-1);
  if (extendTo != null && last && extendTo > Number(last.time))
    data.push({ time: asTime(Math.floor(extendTo)) });
  return data;
}

/**
 * A mark sits on the nearest time the series has a value for (the library draws marks on its own
 * points); a mark outside the drawn values (a close still to come) is left to the text beside the
 * chart, rather than drawn at the wrong time.
 */
export function markTime(times: number[], time: number, slackS = 15): number | undefined {
  const first = times[0];
  const last = times.at(-1);
  if (first === undefined || last === undefined || time < first - slackS || time > last + slackS)
    return undefined;
  let best = first;
  for (const candidate of times) if (Math.abs(candidate - time) < Math.abs(best - time)) best = candidate;
  return best;
}

type ChartHandle = {
  chart: IChartApi;
  series: ISeriesApi<'Baseline'>;
  markers: ISeriesMarkersPluginApi<Time>;
};

export default function TimeChartCanvas(props: TimeChartProps) {
  const { locale, formatValue, valueRange, steps, height } = props;
  const container = useRef<HTMLDivElement>(null);
  const [handle, setHandle] = useState<ChartHandle | null>(null);
  const priceLineRef = useRef<IPriceLine | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const muted = themeColour('--color-muted', '#929aa5');
    const grid = themeColour('--color-line', '#2b3139');
    const up = themeColour('--color-yes', '#0ecb81');
    const down = themeColour('--color-no', '#f6465d');
    const tickFormats = {
      [TickMarkType.Year]: new Intl.DateTimeFormat(locale, { year: 'numeric' }),
      [TickMarkType.Month]: new Intl.DateTimeFormat(locale, { month: 'short' }),
      [TickMarkType.DayOfMonth]: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }),
      [TickMarkType.Time]: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
      [TickMarkType.TimeWithSeconds]: new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }),
    };
    const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const chart = createChart(element, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: muted,
        fontFamily: 'inherit',
        attributionLogo: true,
      },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      crosshair: { mode: CrosshairMode.Magnet },
      // A fixed range (odds 0–100 %) needs little room above and below; a fitted one keeps the default.
      rightPriceScale: {
        borderColor: grid,
        ...(valueRange && { scaleMargins: { top: 0.08, bottom: 0.04 } }),
      },
      timeScale: {
        borderColor: grid,
        timeVisible: true,
        secondsVisible: false,
        fixLeftEdge: true,
        fixRightEdge: true,
        tickMarkFormatter: (time: Time, type: TickMarkType) => tickFormats[type].format(timeOf(time)),
      },
      localization: {
        locale,
        timeFormatter: (time: Time) => full.format(timeOf(time)),
        priceFormatter: formatValue,
      },
      // The page scrolls on touch; the chart does not capture it.
      handleScroll: false,
      handleScale: false,
    });
    const options: BaselineSeriesPartialOptions = {
      baseValue: { type: 'price', price: props.baseline },
      topLineColor: up,
      topFillColor1: `${up}40`,
      topFillColor2: `${up}08`,
      bottomLineColor: down,
      bottomFillColor1: `${down}08`,
      bottomFillColor2: `${down}40`,
      lineWidth: 2,
      lineType: steps ? LineType.WithSteps : LineType.Simple,
      priceLineVisible: false,
      ...(valueRange && {
        autoscaleInfoProvider: () => ({ priceRange: { minValue: valueRange.min, maxValue: valueRange.max } }),
      }),
    };
    const series = chart.addSeries(BaselineSeries, options);
    priceLineRef.current = null;
    setHandle({ chart, series, markers: createSeriesMarkers(series, []) });
    return () => {
      setHandle(null);
      chart.remove();
    };
    // Built again only when the language or the chart's shape changes; data is applied below.
  }, [locale, formatValue, valueRange, steps, props.baseline]);

  const { points, priceLine, marks, extendTo } = props;
  useEffect(() => {
    if (!handle) return;
    const data = toSeriesData(points, extendTo);
    handle.series.setData(data);
    if (priceLineRef.current) handle.series.removePriceLine(priceLineRef.current);
    priceLineRef.current = priceLine
      ? handle.series.createPriceLine({
          price: priceLine.value,
          color: themeColour('--color-brand', '#f0b90b'),
          lineStyle: LineStyle.Dashed,
          lineWidth: 1,
          axisLabelVisible: true,
          title: priceLine.title,
        })
      : null;
    const times = data.flatMap((item) => ('value' in item ? [Number(item.time)] : []));
    const brand = themeColour('--color-brand', '#f0b90b');
    handle.markers.setMarkers(
      (marks ?? []).flatMap((mark) => {
        const time = markTime(times, mark.time);
        return time === undefined
          ? []
          : [
              {
                time: asTime(time),
                position: 'aboveBar' as const,
                shape: 'arrowDown' as const,
                color: brand,
                text: mark.text,
              },
            ];
      }),
    );
    handle.chart.timeScale().fitContent();
  }, [handle, points, priceLine, marks, extendTo]);

  return <div ref={container} className="h-full w-full" style={{ height }} />;
}
