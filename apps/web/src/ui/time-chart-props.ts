// The props of TimeChart, apart so the lazy canvas and its wrapper share them without a cycle.

/** One point of a time chart: `time` in unix seconds (UTC), `value` as drawn. */
export type TimeChartPoint = { time: number; value: number };

export type TimeChartProps = {
  points: TimeChartPoint[];
  /** The accessible summary of the chart (the canvas says nothing to a screen reader). */
  label: string;
  /** Fixed height in px: the skeleton and the chart take the same room (no layout shift). */
  height: number;
  /** Above the baseline in the "up" colour (YES, rising), below in the "down" colour. */
  baseline: number;
  /** The current language: axis times, crosshair labels and values are formatted for it. */
  locale: string;
  formatValue: (value: number) => string;
  /** A horizontal line across the chart, e.g. the live round's lock price. */
  priceLine?: { value: number; title: string } | null;
  /** Labelled marks on the time axis, e.g. a round's lock and close. */
  marks?: Array<{ time: number; text: string }>;
  /** Extend the time axis up to this time (unix seconds), e.g. a round's close still to come. */
  extendTo?: number | null;
  /** A fixed value range instead of fitting the data, e.g. 0–100 % for odds. */
  valueRange?: { min: number; max: number };
  /** Draw steps (a value that holds until the next change) instead of straight segments. */
  steps?: boolean;
  testId?: string;
};
