import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/query-rows.ts';
import { type EscrowRefundStatus, escrowRefunds, payments } from '../../db/schema.ts';
import type { PaymentPurpose, VerifiedPayment } from './verified-payment.ts';

// Refused escrow deposits and the refunds that give them back (escrow_refunds, decision 026). Each
// function takes the pool or the caller's transaction.

export type EscrowRefundRow = typeof escrowRefunds.$inferSelect;

/** A refused deposit as the contract names its stake (`StakeRef`), and how far its refund is. */
export type RefusedDeposit = {
  stakeId: bigint;
  owner: `0x${string}`;
  /** The contract's market key the stake sits in. */
  marketKey: `0x${string}`;
  amountWei: bigint;
  reason: string;
  status: EscrowRefundStatus;
};

/**
 * The refused deposits of one market that are still in its pool: every one not `refunded`. The
 * settlement of that market makes each a leaf of its payout list at its full amount (decision 026:
 * "a refused deposit still open at settlement must be a leaf of the list at its amount"). One in
 * `refunding` may still be refunded by its refundStake first: then the settlement's pool no longer
 * matches (PoolMismatch) and it is built again without it; if the settlement lands first, the refund
 * fails (MarketNotOpen) and the row turns `payout_list`.
 */
export async function listRefusedDepositsInPool(
  db: DbOrTx,
  chainId: number,
  marketKey: string,
): Promise<RefusedDeposit[]> {
  const rows = await db
    .select()
    .from(escrowRefunds)
    .where(
      and(
        eq(escrowRefunds.chainId, chainId),
        eq(escrowRefunds.marketKey, marketKey.toLowerCase()),
        ne(escrowRefunds.status, 'refunded'),
      ),
    )
    .orderBy(escrowRefunds.stakeId);
  return rows.map(toRefusedDeposit);
}

/** Every refused deposit of this transaction (ops, tests). */
export async function listRefusedDepositsOfTx(db: DbOrTx, chainId: number, txHash: string) {
  const rows = await db
    .select()
    .from(escrowRefunds)
    .where(and(eq(escrowRefunds.chainId, chainId), eq(escrowRefunds.txHash, txHash.toLowerCase())))
    .orderBy(escrowRefunds.stakeId);
  return rows.map(toRefusedDeposit);
}

/** Refunds still under way (queued or refunding) or failed, oldest first (ops payments:status). */
export async function listOpenEscrowRefunds(db: DbOrTx): Promise<EscrowRefundRow[]> {
  return db
    .select()
    .from(escrowRefunds)
    .where(inArray(escrowRefunds.status, ['queued', 'refunding', 'failed']))
    .orderBy(escrowRefunds.id);
}

function toRefusedDeposit(row: EscrowRefundRow): RefusedDeposit {
  return {
    stakeId: row.stakeId,
    owner: row.owner as `0x${string}`,
    marketKey: row.marketKey as `0x${string}`,
    amountWei: row.amount,
    reason: row.reason,
    status: row.status as EscrowRefundStatus,
  };
}

const ClaimedRefundSchema = z.object({
  id: z.number(),
  chain_id: z.number(),
  stake_id: z.coerce.bigint(),
  payment_id: z.number(),
  owner: z.string(),
  amount: z.coerce.bigint(),
  market_key: z.string(),
  status: z.enum(['queued', 'refunding']),
  operator_tx_key: z.string().nullable(),
  attempts: z.number(),
});
export type ClaimedEscrowRefund = z.infer<typeof ClaimedRefundSchema>;

/**
 * Claims the next refund of this chain still under way (queued or refunding) and due at `now`, by
 * pushing its next attempt out to `leaseUntil` (FOR UPDATE SKIP LOCKED: safe on every instance).
 */
export async function claimNextEscrowRefund(
  db: DbOrTx,
  input: { chainId: number; now: Date; leaseUntil: Date },
): Promise<ClaimedEscrowRefund | undefined> {
  const [row] = await queryRows(
    db,
    sql`update escrow_refunds set next_attempt_at = ${input.leaseUntil}, attempts = attempts + 1,
               updated_at = now()
        where id = (select id from escrow_refunds
                    where status in ('queued', 'refunding') and chain_id = ${input.chainId}
                      and next_attempt_at <= ${input.now}
                    order by next_attempt_at, id limit 1 for update skip locked)
        returning id, chain_id, stake_id, payment_id, owner, amount, market_key, status, operator_tx_key,
                  attempts`,
    ClaimedRefundSchema,
  );
  return row;
}

/** The refund's action is asked: it is `refunding` under that key, looked at again at `nextAttemptAt`. */
export async function markEscrowRefunding(
  db: DbOrTx,
  id: number,
  input: { operatorTxKey: string; nextAttemptAt: Date },
): Promise<void> {
  await db
    .update(escrowRefunds)
    .set({
      status: 'refunding',
      operatorTxKey: input.operatorTxKey,
      nextAttemptAt: input.nextAttemptAt,
      lastError: null,
      updatedAt: sql`now()`,
    })
    .where(eq(escrowRefunds.id, id));
}

/**
 * The refund ends: `refunded` (its payment row too, in the same transaction, so a crash between them
 * cannot leave the two disagreeing), `payout_list` (the market's settlement owes it) or `failed` (for
 * an operator, with the reason).
 */
export async function endEscrowRefund(
  db: Db,
  row: { id: number; paymentId: number },
  status: 'refunded' | 'payout_list' | 'failed',
  lastError: string | null = null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(escrowRefunds)
      .set({ status, lastError, updatedAt: sql`now()` })
      .where(eq(escrowRefunds.id, row.id));
    if (status === 'refunded') {
      await tx
        .update(payments)
        .set({ status: 'refunded' })
        .where(and(eq(payments.id, row.paymentId), eq(payments.status, 'escrow_refund')));
    }
  });
}

/** The block of the deposit a refund gives back (its payment row's): where its events start. */
export async function findRefundDepositBlock(db: DbOrTx, paymentId: number): Promise<bigint | undefined> {
  const [row] = await db
    .select({ blockNumber: payments.blockNumber })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row?.blockNumber;
}

export async function retryEscrowRefundAt(
  db: DbOrTx,
  id: number,
  nextAttemptAt: Date,
  lastError: string,
): Promise<void> {
  await db
    .update(escrowRefunds)
    .set({ lastError, nextAttemptAt, updatedAt: sql`now()` })
    .where(eq(escrowRefunds.id, id));
}

/**
 * Keeps an escrow deposit we refused as owed back by the escrow, never by a server key: its payment
 * row (status escrow_refund, so no bet can take the stake) and its refund
 * (escrow_refunds, queued for refundStake or its market's payout list), in one transaction.
 * Idempotent: a stake already stored is left as it is. False when it was.
 */
export async function insertEscrowRefund(
  db: Db,
  input: {
    chainId: number;
    payment: VerifiedPayment;
    purpose: PaymentPurpose | 'unknown';
    reason: string;
    now: Date;
  },
): Promise<boolean> {
  const { payment } = input;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payments)
      .values({
        ...paymentRowValues(input.chainId, payment, input.purpose),
        status: 'escrow_refund',
        refundReason: input.reason,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!row) return false;
    await tx.insert(escrowRefunds).values({
      chainId: input.chainId,
      stakeId: payment.deposit.stakeId,
      paymentId: row.id,
      txHash: payment.txHash.toLowerCase(),
      owner: payment.from.toLowerCase(),
      amount: payment.amountWei,
      marketKey: payment.deposit.marketKey.toLowerCase(),
      reason: input.reason,
      nextAttemptAt: input.now,
    });
    return true;
  });
}

/** A payment row's values, recorded (payments-repository.ts) or kept as an escrow refund (here). */
export function paymentRowValues(
  chainId: number,
  payment: VerifiedPayment,
  purpose: PaymentPurpose | 'unknown',
) {
  return {
    chainId,
    txHash: payment.txHash.toLowerCase(),
    fromAddress: payment.from.toLowerCase(),
    amount: payment.amountWei,
    intent: payment.intentText,
    blockNumber: payment.blockNumber,
    blockTime: payment.blockTime,
    purpose,
    stakeId: payment.deposit.stakeId,
    logIndex: payment.deposit.logIndex,
  };
}
