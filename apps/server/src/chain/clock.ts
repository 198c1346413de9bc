import type { TestClient } from 'viem';
import { z } from 'zod';

/** Server time; every deadline and round boundary is decided against it, never the browser's. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function createManualClock(start: Date = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set(time: Date) {
      current = time.getTime();
    },
    advance(ms: number) {
      current += ms;
    },
  };
}

/**
 * Wall time plus the local Hardhat chain's time offset, so `evm_increaseTime` in a test or demo
 * moves the server's clock too. `evm_increaseTime(0)` answers the total offset in seconds.
 * Dev and test only (CLOCK=chain); production uses the system clock.
 */
export function createChainClock(testClient: TestClient, options: { syncMs?: number } = {}) {
  let offsetMs = 0;
  let timer: NodeJS.Timeout | undefined;
  const sync = async () => {
    // Hardhat answers the offset as a decimal string ("3599"), not the hex its type says.
    const answer: unknown = await testClient.increaseTime({ seconds: 0 });
    offsetMs = z.coerce.number().int().parse(answer) * 1000;
  };
  return {
    now: () => new Date(Date.now() + offsetMs),
    sync,
    async start() {
      await sync();
      timer = setInterval(() => void sync().catch(() => {}), options.syncMs ?? 500);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
