import type { PaymentIntent } from '@pm/core/intent';
import type { Hash } from 'viem';

// docs/architecture.md "Payment verification": what a request claims it paid, and what the chain
// verified of it. Every stake is a deposit into the escrow contract (verify-deposit.ts, decision 026).

/** What a payment pays for (the payments row's purpose); market_flag: a flag's bond, held until its market settles. */
export type PaymentPurpose = 'market_create' | 'market_bet' | 'oracle_bet' | 'market_flag';

export type PaymentClaim = {
  txHash: Hash;
  /** The address the request says paid. */
  from: `0x${string}`;
  amountWei: bigint;
  intent: PaymentIntent;
};

/** Which escrow stake a deposit is (decision 026): what its payment row and its bet keep. */
export type DepositStake = {
  stakeId: bigint;
  logIndex: number;
  marketKey: `0x${string}`;
  /** The receipt's `Disputed` count for this stake (a flag's bond sent a pending settlement back); else null. */
  disputes?: number | null;
};

export type VerifiedPayment = {
  txHash: Hash;
  from: `0x${string}`;
  amountWei: bigint;
  intentText: string;
  blockNumber: bigint;
  /** The block's own timestamp: what deadlines are compared with. */
  blockTime: Date;
  /** The escrow stake it is: one of the transaction's `Deposited` events. */
  deposit: DepositStake;
};

export type VerifyResult =
  | { status: 'verified'; payment: VerifiedPayment }
  | { status: 'pending'; txHash: Hash };
