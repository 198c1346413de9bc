import type { Db } from '../db/client.ts';
import type { PayoutMetrics } from '../metrics/metrics.ts';
import { publish } from '../realtime/outbox-repository.ts';
import {
  failPayoutAndRelease,
  lockPayout,
  OPEN_PAYOUT_STATUSES,
  type PayoutRow,
  requeueSignedPayout,
} from './payouts-repository.ts';

/**
 * The transfer can never succeed (its gas estimate or its mined receipt reverted: the recipient's
 * code refuses it). The payout ends `failed` with the reason, and what it paid for is released: bets
 * are claimable again, refunds are held for an operator. Safe: either no nonce was ever signed, or
 * the nonce was used by the reverted transaction itself, so nothing of this payout can mine any more.
 * The released ids are kept on the row for `payouts:reissue`.
 */
export async function failPayout(
  db: Db,
  payout: PayoutRow,
  reason: string,
  metrics?: PayoutMetrics,
): Promise<PayoutRow> {
  const { row, failedNow } = await db.transaction(async (tx) => {
    const locked = await lockPayout(tx, payout.id);
    if (!locked || !OPEN_PAYOUT_STATUSES.includes(locked.status))
      return { row: locked ?? payout, failedNow: false };
    const failed = await failPayoutAndRelease(tx, payout.id, reason);
    await publish(tx, { topic: 'payouts', address: failed.toAddress });
    return { row: failed, failedNow: true };
  });
  if (failedNow) metrics?.countPayout('failed');
  return row;
}

/**
 * The payout's nonce was used on chain by a transaction that is not one of its own (a foreign use
 * of the vault key, or our 0-value self-transfer that freed the nonce). None of its hashes can mine
 * any more, so it goes back to `created` and is signed again at a fresh nonce.
 */
export async function requeuePayout(
  db: Db,
  payout: PayoutRow,
  reason: string,
  metrics?: PayoutMetrics,
): Promise<PayoutRow> {
  const requeued = await requeueSignedPayout(db, payout.id, payout.nonce, reason);
  if (requeued) metrics?.countPayout('created');
  return requeued ?? payout;
}
