import { asc, eq, sql } from 'drizzle-orm';
import { payments, payouts } from '../db/schema.ts';
import type { Job } from '../jobs/job-runner.ts';
import { advanceOpenPayouts, type PayoutProcessorDeps } from './payout-processor.ts';
import { lockNextVaultNonce } from './vault-nonce.ts';

/**
 * Keeps every payout moving: refunds owed for payments that never became bets get a payout row,
 * then every open payout is advanced (re-broadcast, replaced when stuck, confirmed when final).
 * Safe on several instances: nonces are assigned under one advisory lock, and each payout step
 * locks its row.
 */
export function createPayoutsJob(deps: PayoutProcessorDeps & { chainId: number }): Job {
  return {
    name: 'payouts',
    intervalMs: 3_000,
    async run() {
      await createRefundPayouts(deps);
      await advanceOpenPayouts(deps);
    },
  };
}

/** One refund payout per payment owed back to its sender (DESIGN: every payment ends as a bet or a refund). */
export async function createRefundPayouts(deps: PayoutProcessorDeps & { chainId: number }): Promise<number> {
  const chainNonce = BigInt(
    await deps.chain.getTransactionCount({ address: deps.signer.address, blockTag: 'pending' }),
  );
  return deps.db.transaction(async (tx) => {
    let nonce = await lockNextVaultNonce(tx, {
      chainId: deps.chainId,
      vaultAddress: deps.signer.address,
      chainPendingNonce: chainNonce,
    });
    const due = await tx
      .select()
      .from(payments)
      .where(sql`${payments.status} = 'refund_due' and ${payments.refundPayoutId} is null`)
      .orderBy(asc(payments.id))
      .limit(50)
      .for('update', { skipLocked: true });
    if (!due.length) return 0;
    for (const payment of due) {
      const [payout] = await tx
        .insert(payouts)
        .values({
          chainId: deps.chainId,
          fromAddress: deps.signer.address,
          toAddress: payment.fromAddress,
          amount: payment.amount,
          nonce,
          kind: 'refund',
        })
        .returning({ id: payouts.id });
      if (!payout) throw new Error('refund payout insert returned nothing');
      await tx.update(payments).set({ refundPayoutId: payout.id }).where(eq(payments.id, payment.id));
      nonce += 1n;
    }
    return due.length;
  });
}
