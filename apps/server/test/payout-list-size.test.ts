import { newMarketId } from '@pm/escrow/deposit-terms';
import type { PayoutListDocument } from '@pm/escrow/payout-list';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { operatorTransactions, payoutListLeaves } from '../src/db/schema.ts';
import {
  findPayoutListByMarket,
  insertDueSettlement,
  publishSettlement,
} from '../src/escrow/settlements/payout-lists-repository.ts';
import { insertMarketWithBets } from './support/market-fixtures.ts';
import { openTestDatabase, type TestDatabase } from './support/test-database.ts';

// A market of 100k bets settles on the escrow with a payout list of tens of thousands of leaves
// (docs/benchmarks.md "Settlement"): publishing it writes every leaf in the job's one transaction,
// although one statement takes at most 65,535 parameters and a leaf is four.

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

test('a payout list of 20,000 leaves is published whole', async () => {
  const db = database.db;
  const escrowId = newMarketId();
  const closesAt = Math.floor(Date.now() / 1000) + 3600;
  const { marketId } = await insertMarketWithBets(db, {
    bets: [{ prediction: 'YES', amountWei: 10n ** 16n }],
    escrow: { escrowId, closesAt },
  });
  await insertDueSettlement(db, {
    marketKey: '0x'.padEnd(66, 'a'),
    predictionMarketId: marketId,
    chainId: 31337,
    escrow: '0x'.padEnd(42, 'e'),
    marketId: escrowId,
    closesAt,
    refund: false,
    outcome: 1,
    verdictHash: '0x'.padEnd(66, 'b'),
  });
  const due = await findPayoutListByMarket(db, marketId);
  if (!due) throw new Error('no settlement due');
  const [action] = await db
    .insert(operatorTransactions)
    .values({
      key: `test-settle:${marketId}`,
      chainId: 31337,
      sender: '0x'.padEnd(42, '1'),
      toAddress: '0x'.padEnd(42, 'e'),
      data: '0x',
      value: 0n,
      gasCap: 300_000n,
    })
    .returning();
  if (!action) throw new Error('no operator action');
  const leaves = Array.from({ length: 20_000 }, (_, index) => ({
    stakeId: BigInt(index + 1),
    payout: 10n ** 15n,
    proof: [`0x${(index + 1).toString(16).padStart(64, '0')}`],
  }));
  const published = await db.transaction((tx) =>
    publishSettlement(
      tx,
      due.id,
      { status: 'due', attempts: due.attempts },
      {
        operatorTxId: action.id,
        publishedAt: new Date(),
        pool: 20n * 10n ** 18n,
        list: {
          // The document's shape is the escrow package's; the leaves are what this test counts.
          document: {} as PayoutListDocument,
          root: '0x'.padEnd(66, 'c'),
          payoutTotal: 20n * 10n ** 18n,
          fee: 0n,
          leaves,
        },
      },
    ),
  );
  expect(published?.status).toBe('published');
  const [written] = await db
    .select({ leaves: count() })
    .from(payoutListLeaves)
    .where(eq(payoutListLeaves.marketKey, due.marketKey));
  expect(written?.leaves).toBe(20_000);
});
