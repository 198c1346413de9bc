import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { bets, markets, payments } from '../../src/db/schema.ts';

// Markets written straight to the database, for settlement maths and listings where paying for
// every bet on chain would add nothing but time. Endpoint tests use real payments instead.

/** `at`: when the bet was placed (default: the market's `now`). */
export type FixtureBet = { prediction: 'YES' | 'NO'; amountWei: bigint; user?: string; at?: Date };

/**
 * Fixture markets are v2 unless a test says otherwise: they test settlement, review and listings
 * with a judge that answers with sources; v3 (evidence, citations) has its own tests
 * (evidence-judging.test.ts).
 */
export const LEGACY_PROMPT_VERSION = 'market-resolver-v2';

const randomAddress = () => `0x${randomBytes(20).toString('hex')}`;

export async function insertMarketWithBets(
  db: Db,
  input: {
    bets: FixtureBet[];
    status?: 'active' | 'settling' | 'settled';
    title?: string;
    now?: Date;
    updatedAt?: Date;
    resolverModel?: string;
    resolverPromptVersion?: string;
    result?: 'YES' | 'NO' | 'VOID';
    aiConfidence?: number;
  },
): Promise<{ marketId: number; betIds: number[] }> {
  const now = input.now ?? new Date();
  const sum = (side: 'YES' | 'NO') =>
    input.bets.filter((bet) => bet.prediction === side).reduce((total, bet) => total + bet.amountWei, 0n);
  const [market] = await db
    .insert(markets)
    .values({
      creatorAddress: input.bets[0]?.user ?? randomAddress(),
      title: input.title ?? 'Fixture market',
      description: input.title ?? 'Fixture market',
      category: 'crypto',
      duration: 'hourly',
      startTime: new Date(now.getTime() - 3_600_000),
      deadline: now,
      status: input.status ?? 'settling',
      totalYesAmount: sum('YES'),
      totalNoAmount: sum('NO'),
      yesCount: input.bets.filter((bet) => bet.prediction === 'YES').length,
      noCount: input.bets.filter((bet) => bet.prediction === 'NO').length,
      result: input.result ?? null,
      aiConfidence: input.aiConfidence ?? null,
      resolverModel: input.resolverModel ?? 'operator',
      resolverPromptVersion: input.resolverPromptVersion ?? LEGACY_PROMPT_VERSION,
      contentHash: `0x${randomBytes(32).toString('hex')}`,
      nextResolutionAt: now,
      createdAt: new Date(now.getTime() - 3_600_000),
      updatedAt: input.updatedAt ?? now,
    })
    .returning({ id: markets.id });
  if (!market) throw new Error('no market inserted');
  if (input.bets.length === 0) return { marketId: market.id, betIds: [] };

  const rows = input.bets.map((bet) => ({ ...bet, user: bet.user ?? randomAddress() }));
  const paid = await db
    .insert(payments)
    .values(
      rows.map((bet) => ({
        chainId: 31337,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        fromAddress: bet.user,
        amount: bet.amountWei,
        intent: `pm1:bet:${market.id}:${bet.prediction}`,
        blockNumber: 1n,
        blockTime: now,
        purpose: 'market_bet',
        status: 'recorded',
      })),
    )
    .returning({ id: payments.id, txHash: payments.txHash });
  const inserted = await db
    .insert(bets)
    .values(
      rows.map((bet, index) => {
        const payment = paid[index];
        if (!payment) throw new Error('payment rows out of step');
        return {
          marketId: market.id,
          userAddress: bet.user,
          prediction: bet.prediction,
          amount: bet.amountWei,
          potentialPayout: bet.amountWei * 2n,
          status: 'pending',
          isCreator: index === 0,
          paymentId: payment.id,
          txHash: payment.txHash,
          createdAt: bet.at ?? now,
        };
      }),
    )
    .returning({ id: bets.id });
  return { marketId: market.id, betIds: inserted.map((row) => row.id) };
}
