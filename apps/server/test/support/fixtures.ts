import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/client.ts';
import { bets, markets, oracleBets, oracleRounds, payments } from '../../src/db/schema.ts';

// Rows for tests of modules that come after a bet (payouts, leaderboard): written directly, since
// the paths that create them have their own tests with real payments.

const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

export async function insertPayment(
  db: Db,
  input: {
    from: string;
    amount: bigint;
    status?: 'recorded';
    purpose?: 'market_bet' | 'oracle_bet';
  },
) {
  const [row] = await db
    .insert(payments)
    .values({
      chainId: 31337,
      txHash: randomHash(),
      fromAddress: input.from.toLowerCase(),
      amount: input.amount,
      intent: 'pm1:bet:1:YES',
      blockNumber: 1n,
      blockTime: new Date(),
      purpose: input.purpose ?? 'market_bet',
      status: input.status ?? 'recorded',
    })
    .returning();
  if (!row) throw new Error('no payment');
  return row;
}

type BetFixture = {
  address: string;
  prediction: 'YES' | 'NO';
  amount: bigint;
  status: 'pending' | 'won' | 'lost' | 'refunded';
  /** A win's profit; stored with the stake as payout_amount, the full return (decision 002). */
  profit?: bigint;
};

/** payout_amount as settlement writes it: stake + profit, the stake, 0, or null while pending. */
function storedPayout(bet: BetFixture): bigint | null {
  switch (bet.status) {
    case 'won':
      return bet.amount + (bet.profit ?? 0n);
    case 'refunded':
      return bet.amount;
    case 'lost':
      return 0n;
    case 'pending':
      return null;
  }
}

export async function insertSettledMarket(
  db: Db,
  input: { result: 'YES' | 'NO' | 'VOID'; bets: BetFixture[] },
) {
  const now = new Date();
  const [market] = await db
    .insert(markets)
    .values({
      creatorAddress: input.bets[0]?.address.toLowerCase() ?? '0x0000000000000000000000000000000000000001',
      title: 'Will the fixture settle?',
      description: 'A market written by a test fixture.',
      category: 'crypto',
      duration: 'hourly',
      startTime: now,
      deadline: now,
      status: 'settled',
      result: input.result,
      resolverModel: 'operator',
      resolverPromptVersion: 'test',
      contentHash: randomHash(),
    })
    .returning();
  if (!market) throw new Error('no market');
  const rows = [];
  for (const bet of input.bets) {
    const payment = await insertPayment(db, { from: bet.address, amount: bet.amount });
    const [row] = await db
      .insert(bets)
      .values({
        marketId: market.id,
        userAddress: bet.address.toLowerCase(),
        prediction: bet.prediction,
        amount: bet.amount,
        potentialPayout: bet.amount * 2n,
        payoutAmount: storedPayout(bet),
        status: bet.status,
        paymentId: payment.id,
        txHash: payment.txHash,
      })
      .returning();
    if (row) rows.push(row);
  }
  return { market, bets: rows };
}

export async function insertEndedRound(
  db: Db,
  input: {
    epoch: number;
    result: 'bull' | 'bear' | 'draw' | 'cancelled';
    bets: { address: string; position: 'bull' | 'bear'; amount: bigint; payout: bigint | null }[];
  },
) {
  const start = new Date(input.epoch * 600_000);
  await db.insert(oracleRounds).values({
    epoch: input.epoch,
    status: 'ended',
    startTime: start,
    lockTime: new Date(start.getTime() + 300_000),
    closeTime: new Date(start.getTime() + 600_000),
    result: input.result,
  });
  const rows = [];
  for (const bet of input.bets) {
    const payment = await insertPayment(db, { from: bet.address, amount: bet.amount, purpose: 'oracle_bet' });
    const [row] = await db
      .insert(oracleBets)
      .values({
        epoch: input.epoch,
        userAddress: bet.address.toLowerCase(),
        position: bet.position,
        amount: bet.amount,
        payoutAmount: bet.payout,
        paymentId: payment.id,
        txHash: payment.txHash,
      })
      .returning();
    if (row) rows.push(row);
  }
  return rows;
}
