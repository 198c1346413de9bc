import type { Clock } from '../chain/clock.ts';
import { clientKey } from '../http/client-key.ts';

// The limits of POST /api/markets/analyze (docs/decisions/019): each call may cost a model call, so a
// client address gets a few a minute and the instance a daily budget of model calls
// (ANALYZE_DAILY_LIMIT). In memory, per instance: a restart forgives, which is fine for a budget of
// this size.

/** Analyze requests per client address per minute. */
export const ANALYZE_PER_ADDRESS_PER_MINUTE = 5;
/** Addresses remembered at most; beyond it the oldest window is forgotten (bounded memory). */
const MAX_ADDRESSES = 10_000;

export function createAnalyzeLimits(input: { clock: Clock; perMinute: number; perDay: number }) {
  const windows = new Map<string, { startMs: number; count: number }>();
  let day = '';
  let calls = 0;
  return {
    /**
     * Counts one request of `ip`'s client (an IPv6 client by its /64, http/client-key.ts); false
     * when it is over its minute's allowance.
     */
    takeAddress(ip: string): boolean {
      const address = clientKey(ip);
      const nowMs = input.clock.now().getTime();
      const window = windows.get(address);
      if (!window || nowMs - window.startMs >= 60_000) {
        windows.delete(address);
        if (windows.size >= MAX_ADDRESSES) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        windows.set(address, { startMs: nowMs, count: 1 });
        return true;
      }
      if (window.count >= input.perMinute) return false;
      window.count += 1;
      return true;
    },
    /** Counts one model call against today's (UTC, server time) budget; false when it is spent. */
    takeModelCall(): boolean {
      const today = input.clock.now().toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        calls = 0;
      }
      if (calls >= input.perDay) return false;
      calls += 1;
      return true;
    },
  };
}

export type AnalyzeLimits = ReturnType<typeof createAnalyzeLimits>;
