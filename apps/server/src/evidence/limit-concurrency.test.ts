import { describe, expect, it } from 'vitest';
import { limitConcurrency } from './limit-concurrency.ts';

describe('limitConcurrency', () => {
  it('runs at most `limit` tasks at once, all of them in the end, and passes failures through', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let most = 0;
    const task = (value: number) =>
      limit(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (value === 3) throw new Error('three');
        return value;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(most).toBe(2);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : 'failed'))).toEqual([
      1,
      2,
      'failed',
      4,
      5,
      6,
    ]);
  });

  it('refuses a limit below one', () => {
    expect(() => limitConcurrency(0)).toThrow();
  });
});
