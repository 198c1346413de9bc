import { intentText } from '@pm/core/intent';
import type { DepositTerms } from '@pm/escrow/deposit-terms';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import { queueSettlementAfterRefusedDispute } from '../settlement/dispute-settlement-repository.ts';
import { insertEscrowRefund, insertRefundDuePayment, type PaymentPurpose } from './payments-repository.ts';
import { type DepositVerifierDeps, verifyDeposit } from './verify-deposit.ts';
import {
  type PaymentClaim,
  type PaymentVerifierDeps,
  type VerifiedPayment,
  type VerifyResult,
  verifyPayment,
} from './verify-payment.ts';

// docs/architecture.md "Payment verification": where a payment's money is and how it is checked. Market
// payments are plain transfers to the vault (verify-payment.ts); an oracle round's stake is a deposit into
// the escrow contract (verify-deposit.ts, decision 026). acceptPayment takes one of these, so both keep
// every guarantee of the one payment path.

export type PaymentSource = {
  /**
   * `transfer`: a transaction is at most one payment; `deposit`: one per `Deposited` event of it, so a
   * transaction already used may still hold a deposit no request has taken (a batch).
   */
  kind: 'transfer' | 'deposit';
  chainId: number;
  /**
   * The payment the claim states, verified on chain (final and canonical), or pending. `taken`: the
   * stakes of this transaction already stored, which a deposit claim may not take again.
   */
  verify(claim: PaymentClaim, taken: readonly bigint[]): Promise<VerifyResult>;
  /**
   * Keeps a verified payment that could not become a bet as money owed back to its payer: a vault
   * transfer as a refund the payouts job sends; a deposit as a refund the escrow itself makes
   * (escrow_refunds: refundStake, or its market's payout list), never from the vault.
   */
  keepRefused(
    db: Db,
    input: { payment: VerifiedPayment; purpose: PaymentPurpose; reason: string },
  ): Promise<void>;
};

/** A plain BNB transfer to the vault carrying its intent (market payments). */
export function vaultTransfer(deps: PaymentVerifierDeps): PaymentSource {
  return {
    kind: 'transfer',
    chainId: deps.chainId,
    verify: (claim) => verifyPayment(deps, claim),
    keepRefused: (db, input) => insertRefundDuePayment(db, { chainId: deps.chainId, ...input }),
  };
}

/**
 * A deposit into the escrow for `terms` (oracle rounds, flag bonds). A refused deposit that disputed
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
    kind: 'deposit',
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
