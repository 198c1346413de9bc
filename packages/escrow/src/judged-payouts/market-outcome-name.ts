import { MARKET_OUTCOME, type MarketOutcomeName } from '../market-settlement.ts';

const OUTCOME_NAMES = new Map<number, MarketOutcomeName>([
  [MARKET_OUTCOME.YES, 'YES'],
  [MARKET_OUTCOME.NO, 'NO'],
  [MARKET_OUTCOME.VOID, 'VOID'],
]);

/** A judged market's outcome by name from its code on chain (`settle`'s outcome), or null for any other code. */
export function marketOutcomeName(code: number): MarketOutcomeName | null {
  return OUTCOME_NAMES.get(code) ?? null;
}
