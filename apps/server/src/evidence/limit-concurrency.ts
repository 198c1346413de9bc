// A small pool: at most `limit` tasks run at once, the rest wait their turn in order, so
// that stalling pages hold up a gather for about timeout × ceil(pages / limit) and no longer.

export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function limitConcurrency(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('concurrency must be a positive integer');
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
