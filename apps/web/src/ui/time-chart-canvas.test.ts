import { describe, expect, test } from 'vitest';
import { markTime, toSeriesData } from './time-chart-canvas.tsx';

describe('toSeriesData', () => {
  test('Points are sorted, one per second (the last wins), and the axis is extended by a blank time', () => {
    const data = toSeriesData(
      [
        { time: 120.4, value: 3 },
        { time: 60, value: 1 },
        { time: 120.9, value: 4 },
      ],
      300,
    );
    expect(data).toEqual([{ time: 60, value: 1 }, { time: 120, value: 4 }, { time: 300 }]);
  });
});

describe('markTime', () => {
  test('A mark snaps to the nearest drawn time; one beyond the drawn values is not drawn', () => {
    expect(markTime([60, 90, 120], 95)).toBe(90);
    expect(markTime([60, 90, 120], 130)).toBe(120);
    expect(markTime([60, 90, 120], 200)).toBeUndefined();
    expect(markTime([], 60)).toBeUndefined();
  });
});
