import type { FastifyBaseLogger } from 'fastify';
import type { Abi, LocalAccount, PublicClient } from 'viem';
import type { Db } from '../db/client.ts';
import type { OperatorSenderMetrics } from '../metrics/metrics.ts';
import type { OperatorAction } from './operator-action.ts';
import type { OperatorTxRow } from './operator-transactions-repository.ts';
import type { ClassifyRevert } from './revert-reason.ts';

// What the sender's steps share (submit, sign, advance), apart from them so none imports the module
// that calls it.

export type OperatorSenderDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  /** The operator key: it holds gas money only, and signs every transaction of its lane. */
  account: LocalAccount;
  /** A receipt counts once this deep (or finalized) and in the canonical block: the payments' setting. */
  confirmations: number | 'finalized';
  /** Ceiling for maxFeePerGas, replacements included (PAYOUT_MAX_FEE_PER_GAS_GWEI). */
  maxFeePerGas: bigint;
  /** A sent transaction not mined this long is sent again as it is (OPERATOR_TX_RESEND_AFTER_MS). */
  resendAfterMs: number;
  /** This long after signing, it is replaced at its nonce (OPERATOR_TX_REPLACE_AFTER_MS). */
  replaceAfterMs: number;
  /** Whether a reverted simulation means the action's effect already holds (`done`) or not. */
  classifyRevert: ClassifyRevert;
  /** Decodes revert reasons for the record; the escrow's ABI by default. */
  errorAbi?: Abi;
  now?: () => number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  metrics?: OperatorSenderMetrics;
};

/** The lane's sender, as stored (lower-case). */
export function senderOf(deps: Pick<OperatorSenderDeps, 'account'>): `0x${string}` {
  return deps.account.address.toLowerCase() as `0x${string}`;
}

export function nowOf(deps: Pick<OperatorSenderDeps, 'now'>): number {
  return deps.now?.() ?? Date.now();
}

/** The call a row asks for, as the classifier sees it. */
export function actionOf(row: OperatorTxRow): OperatorAction {
  return {
    key: row.key,
    to: row.toAddress as `0x${string}`,
    data: row.data as `0x${string}`,
    value: row.value,
    gasCap: row.gasCap,
    signAtCap: row.signAtCap,
  };
}
