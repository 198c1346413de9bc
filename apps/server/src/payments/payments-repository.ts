import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { preparedPerHandle } from '../db/prepared-rows.ts';
import { payments } from '../db/schema.ts';
import { AppError } from '../errors/app-error.ts';
import { paymentRowValues } from '../escrow/deposits/escrow-refunds-repository.ts';
import type { PaymentPurpose, VerifiedPayment } from '../escrow/deposits/verified-payment.ts';

export type KnownPayment = {
  id: number;
  fromAddress: string;
  amount: bigint;
  intent: string;
  status: string;
  /** The escrow stake it is; null only for rows written without a deposit (test fixtures). */
  stakeId: bigint | null;
};

/**
 * The payments already stored under this hash, oldest first: one per deposit of the transaction (a
 * batch may hold several).
 */
export async function findKnownPayments(
  db: DbOrTx,
  chainId: number,
  txHash: string,
): Promise<KnownPayment[]> {
  return knownPayments(db).execute({ chainId, txHash: txHash.toLowerCase() });
}

/** Read first by every payment (docs/decisions/024): built once per handle. */
const knownPayments = preparedPerHandle((db) =>
  db
    .select({
      id: payments.id,
      fromAddress: payments.fromAddress,
      amount: payments.amount,
      intent: payments.intent,
      status: payments.status,
      stakeId: payments.stakeId,
    })
    .from(payments)
    .where(
      and(eq(payments.chainId, sql.placeholder('chainId')), eq(payments.txHash, sql.placeholder('txHash'))),
    )
    .orderBy(payments.id)
    .prepare('known_payments'),
);

export async function isPaymentKnown(db: DbOrTx, chainId: number, txHash: string): Promise<boolean> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.chainId, chainId), eq(payments.txHash, txHash.toLowerCase())))
    .limit(1);
  return rows.length > 0;
}

/** The status of the payment stored under this hash, if any. */
export async function findPaymentStatus(
  db: DbOrTx,
  chainId: number,
  txHash: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(and(eq(payments.chainId, chainId), eq(payments.txHash, txHash)))
    .limit(1);
  return row?.status;
}

/** Which of these hashes (lower-case) are payments already. */
export async function findKnownPaymentHashes(
  db: DbOrTx,
  chainId: number,
  txHashes: string[],
): Promise<Set<string>> {
  if (!txHashes.length) return new Set();
  const rows = await db
    .select({ txHash: payments.txHash })
    .from(payments)
    .where(and(eq(payments.chainId, chainId), inArray(payments.txHash, txHashes)));
  return new Set(rows.map((row) => row.txHash));
}

/**
 * Records a verified payment as used by a bet. The unique (chain_id, tx_hash) index makes a second
 * use impossible even under concurrent requests: the loser gets TX_ALREADY_USED.
 */
export async function insertRecordedPayment(
  tx: DbOrTx,
  input: { chainId: number; payment: VerifiedPayment; purpose: PaymentPurpose },
): Promise<number> {
  const rows = await tx
    .insert(payments)
    .values({ ...paymentRowValues(input.chainId, input.payment, input.purpose), status: 'recorded' })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  const row = rows[0];
  if (!row) throw new AppError('TX_ALREADY_USED');
  return row.id;
}
