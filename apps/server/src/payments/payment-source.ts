import { intentText } from '@pm/core/intent';
import type { DepositTerms } from '@pm/escrow/deposit-terms';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import type { PaymentClaim, VerifiedPayment, VerifyResult } from '../escrow/deposits/verified-payment.ts';
import { type DepositVerifierDeps, verifyDeposit } from '../escrow/deposits/verify-deposit.ts';
import { queueSettlementAfterRefusedDispute } from '../escrow/settlements/dispute-settlement-repository.ts';
import { insertEscrowRefund, type PaymentPurpose } from './payments-repository.ts';

// docs/architecture.md "Payment verification": where a payment's money is and how it is checked. Every
// stake is a deposit into the escrow contract (verify-deposit.ts, decision 026), with the terms of what
// it pays for; acceptPayment takes one of these, so every game keeps every guarantee of the one path.

export type PaymentSource = {
  chainId: number;
  /**
   * The payment the claim states, verified on chain (final and canonical), or pending. `taken`: the
   * stakes of this transaction already stored, which a deposit claim may not take again.
   */
  verify(claim: PaymentClaim, taken: readonly bigint[]): Promise<VerifyResult>;
  /**
   * Keeps a verified payment that could not become a bet as money owed back to its payer, by the
   * escrow itself (escrow_refunds: refundStake, or its market's payout list), never by a server key.
   */
  keepRefused(
    db: Db,
    input: { payment: VerifiedPayment; purpose: PaymentPurpose; reason: string },
  ): Promise<void>;
};

/**
 * A deposit into the escrow for `terms` (a creation, a bet, a round bet, a flag's bond). A refused deposit that disputed
 * its market's pending settlement (a flag's bond) also queues that settlement again (decision 026). The claim's intent names the same bet (it is
 * what the payment row keeps, so the same request sent again is recognised); `stakeId` pins the one
 * stake reconciliation records from its own event.
 */
export function escrowDeposit(
  deps: DepositVerifierDeps,
  terms: DepositTerms,
  options: { clock: Clock; stakeId?: bigint },
): PaymentSource {
  return {
    chainId: deps.chainId,
    async verify(claim, taken) {
      const verified = await verifyDeposit(deps, {
        txHash: claim.txHash,
        from: claim.from,
        amountWei: claim.amountWei,
        terms,
        taken,
        ...(options.stakeId === undefined ? {} : { stakeId: options.stakeId }),
      });
      if (verified.status === 'pending') return verified;
      const { deposit } = verified;
      return {
        status: 'verified',
        payment: {
          txHash: deposit.txHash,
          from: claim.from,
          amountWei: deposit.amountWei,
          intentText: intentText(claim.intent),
          blockNumber: deposit.blockNumber,
          blockTime: deposit.blockTime,
          deposit: {
            stakeId: deposit.stakeId,
            logIndex: deposit.logIndex,
            marketKey: deposit.key,
            disputes: deposit.disputes,
          },
        },
      };
    },
    async keepRefused(db, input) {
      const { deposit } = input.payment;
      if (!deposit) throw new Error('a refused deposit without its stake');
      await insertEscrowRefund(db, {
        chainId: deps.chainId,
        payment: { ...input.payment, deposit },
        purpose: input.purpose,
        reason: input.reason,
        now: options.clock.now(),
      });
      // A refused dispute (a flag's bond) sent its market's pending settlement back: queued again.
      if (deposit.disputes != null) {
        await queueSettlementAfterRefusedDispute(db, {
          marketKey: deposit.marketKey,
          now: options.clock.now(),
        });
      }
    },
  };
}
