import type { Round } from '@pm/core/contract/oracle';
import { parseUsdPrice } from '@pm/core/price';
import { payoutMultiplier } from '@pm/core/rounds';

// What a round card shows, computed from the wire round (pure: tested without React).

export function roundPools(round: Pick<Round, 'totalUpWei' | 'totalDownWei'>) {
  const up = BigInt(round.totalUpWei);
  const down = BigInt(round.totalDownWei);
  return { up, down, total: up + down };
}

/** docs/product.md §9: total pool / side pool, 2 decimals; '1.00' one-sided, '0.00' empty. */
export function roundMultipliers(round: Pick<Round, 'totalUpWei' | 'totalDownWei'>) {
  const { up, down, total } = roundPools(round);
  return { up: payoutMultiplier(total, up), down: payoutMultiplier(total, down) };
}

/** The change from lock to `usd`, 1e8-scaled (lib/use-format.ts `formatPrice` shows it signed). */
export function usdChange(fromUsd: string, toUsd: string): bigint {
  return parseUsdPrice(toUsd) - parseUsdPrice(fromUsd);
}

/** Whether `usd` is above, below or equal to the lock price: the colour of the last price. */
export function directionFrom(lockUsd: string, usd: string): 'up' | 'down' | 'flat' {
  const change = parseUsdPrice(usd) - parseUsdPrice(lockUsd);
  return change > 0n ? 'up' : change < 0n ? 'down' : 'flat';
}

/** Wire times (ISO) to the unix seconds the core round rules use. */
export function roundTimes(round: Pick<Round, 'startTime' | 'lockTime' | 'closeTime'>) {
  return {
    startTime: Date.parse(round.startTime) / 1000,
    lockTime: Date.parse(round.lockTime) / 1000,
    closeTime: Date.parse(round.closeTime) / 1000,
  };
}
