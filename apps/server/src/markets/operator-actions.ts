import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { markets } from '../db/schema.ts';
import { AppError } from '../http/app-error.ts';
import { lockMarket, type MarketRow } from './markets-repository.ts';
import { type SettlementSummary, settleMarket } from './settle-market.ts';

// DESIGN "Operators": resolve or void a market by hand, from the ops CLI or the EIP-712-signed API
// (market-operator-routes.ts). Used when no AI is configured, or when the AI could not decide.

/** Settling markets, the ones waiting for a verdict, oldest deadline first. */
export async function listMarketsAwaitingResolution(db: Db): Promise<MarketRow[]> {
  return db.select().from(markets).where(eq(markets.status, 'settling')).orderBy(asc(markets.deadline));
}

/**
 * Settles a market YES or NO with the operator's analysis. Allowed once betting has closed: the
 * market is settling, or still active with its deadline passed (the job has not moved it yet).
 */
export async function resolveMarketByOperator(
  db: Db,
  input: { marketId: number; result: 'YES' | 'NO'; analysis: string; feeBps: number; now: Date },
): Promise<SettlementSummary> {
  return db.transaction(async (tx) => {
    const market = await lockMarket(tx, input.marketId);
    if (!market) throw new AppError('MARKET_NOT_FOUND');
    if (market.status === 'settled') throw alreadySettled(market);
    if (market.status === 'active' && input.now.getTime() < market.deadline.getTime()) {
      throw new AppError(
        'BAD_REQUEST',
        `Market ${market.id} takes bets until ${market.deadline.toISOString()}; resolve it after its deadline (or void it).`,
      );
    }
    const summary = await settleMarket(tx, {
      marketId: market.id,
      outcome: input.result,
      verdict: { analysis: input.analysis, confidence: null, sources: [] },
      feeBps: input.feeBps,
      now: input.now,
      from: ['active', 'settling'],
    });
    if (!summary) throw alreadySettled(market);
    return summary;
  });
}

/** Voids a market that is not settled yet, open or not: every stake is refunded. */
export async function voidMarketByOperator(
  db: Db,
  input: { marketId: number; reason: string; feeBps: number; now: Date },
): Promise<SettlementSummary> {
  return db.transaction(async (tx) => {
    const market = await lockMarket(tx, input.marketId);
    if (!market) throw new AppError('MARKET_NOT_FOUND');
    const summary = await settleMarket(tx, {
      marketId: market.id,
      outcome: 'VOID',
      verdict: { analysis: input.reason, confidence: null, sources: [] },
      feeBps: input.feeBps,
      now: input.now,
      from: ['active', 'settling'],
    });
    if (!summary) throw alreadySettled(market);
    return summary;
  });
}

function alreadySettled(market: MarketRow): AppError {
  return new AppError(
    'BAD_REQUEST',
    `Market ${market.id} is already settled (${market.result ?? 'no result'}).`,
  );
}
