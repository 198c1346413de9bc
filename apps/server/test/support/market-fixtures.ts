import { randomBytes } from 'node:crypto';
import { marketKey } from '@pm/escrow/market-key';
import type { Hash, Hex } from 'viem';
import type { Db } from '../../src/db/client.ts';
import { bets, markets, payments } from '../../src/db/schema.ts';

// Markets written straight to the database, for settlement maths and listings where paying for
// every bet on chain would add nothing but time. Endpoint tests use real payments instead. A market
// on the escrow (escrow-market-helpers.ts) is written here too, its bets naming their stakes.

/**
 * `at`: when the bet was placed (default: the market's `now`). `stakeId`: the bet's stake on the
 * escrow; `deposit`: the transaction and log of that stake's real deposit, which the payment names
 * as the intake records it (without it the stake is one no chain holds).
 */
export type FixtureBet = {
  prediction: 'YES' | 'NO';
  amountWei: bigint;
  user?: string;
  at?: Date;
  stakeId?: bigint;
  deposit?: { txHash: Hash; logIndex: number };
};

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
    /** A market on the escrow: its escrow id and close (its deadline, unless `now` says otherwise). */
    escrow?: { escrowId: Hex; closesAt: number };
  },
): Promise<{ marketId: number; betIds: number[] }> {
  const now = input.now ?? (input.escrow ? new Date(input.escrow.closesAt * 1000) : new Date());
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
      ...(input.escrow
        ? {
            escrowId: input.escrow.escrowId,
            escrowKey: marketKey(input.escrow.escrowId, input.escrow.closesAt).toLowerCase(),
          }
        : {}),
    })
    .returning({ id: markets.id });
  if (!market) throw new Error('no market inserted');
  const betIds = await insertBets(db, { marketId: market.id, now, firstIsCreator: true }, input.bets);
  return { marketId: market.id, betIds };
}

/**
 * Bets of `marketId` with their payments, as verified payments become bets (the first the creator's
 * when `firstIsCreator`); the market's totals are left as they are.
 */
export async function insertBets(
  db: Db,
  market: { marketId: number; now: Date; firstIsCreator?: boolean },
  fixture: FixtureBet[],
): Promise<number[]> {
  if (fixture.length === 0) return [];
  const rows = fixture.map((bet) => ({
    ...bet,
    user: bet.user ?? randomAddress(),
    txHash: bet.deposit?.txHash.toLowerCase() ?? `0x${randomBytes(32).toString('hex')}`,
  }));
  const paid = await db
    .insert(payments)
    .values(
      rows.map((bet) => ({
        chainId: 31337,
        txHash: bet.txHash,
        fromAddress: bet.user,
        amount: bet.amountWei,
        intent: `pm1:bet:${market.marketId}:${bet.prediction}`,
        blockNumber: 1n,
        blockTime: market.now,
        purpose: 'market_bet',
        status: 'recorded',
        ...(bet.deposit ? { stakeId: bet.stakeId ?? null, logIndex: bet.deposit.logIndex } : {}),
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
          marketId: market.marketId,
          userAddress: bet.user,
          prediction: bet.prediction,
          amount: bet.amountWei,
          potentialPayout: bet.amountWei * 2n,
          status: 'pending',
          isCreator: market.firstIsCreator === true && index === 0,
          paymentId: payment.id,
          txHash: payment.txHash,
          stakeId: bet.stakeId ?? null,
          createdAt: bet.at ?? market.now,
        };
      }),
    )
    .returning({ id: bets.id });
  return inserted.map((row) => row.id);
}
