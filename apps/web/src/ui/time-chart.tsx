import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { Skeleton } from './skeleton.tsx';
import type { TimeChartProps } from './time-chart-props.ts';

// The chart library (lightweight-charts, ~60 kB gzip) is its own chunk, fetched only
// when a chart is shown: no route's initial JS grows (docs/decisions/013-charts.md).
const TimeChartCanvas = lazy(() => import('./time-chart-canvas.tsx'));

/**
 * A time series on canvas with a time axis and a value scale. The library is fetched once the chart
 * comes near the viewport (a phone that never scrolls to it never loads it); until it is drawn, a
 * skeleton of the same size holds its place. The wrapper is a figure named by `label` (a figure, not an image: the library's attribution link sits inside it).
 */
export function TimeChart(props: TimeChartProps) {
  const box = useRef<HTMLElement>(null);
  const near = useNearViewport(box);
  return (
    <figure
      ref={box}
      aria-label={props.label}
      data-testid={props.testId}
      className="relative w-full"
      style={{ height: props.height }}
    >
      {near ? (
        <Suspense fallback={<Skeleton className="h-full w-full" />}>
          <TimeChartCanvas {...props} />
        </Suspense>
      ) : (
        <Skeleton className="h-full w-full" />
      )}
    </figure>
  );
}

/** True from the moment `element` is within a screen's height of the viewport, and from then on. */
function useNearViewport(element: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (near || !target) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [near, element]);
  return near;
}
