import { formatBnbWithUnit } from '@pm/core/money';
import { isHex } from 'viem';
import { createChainClient } from '../chain/chain-client.ts';
import { AppError } from '../errors/app-error.ts';
import { owedBackWei } from '../payments/payments-repository.ts';
import { auditVaultOutflows } from '../payouts/audit-vault-outflows.ts';
import { advancePayout } from '../payouts/payout-processor.ts';
import type { PayoutProcessorDeps } from '../payouts/payout-processor-deps.ts';
import { insertPayout, listPayoutsByStatus } from '../payouts/payouts-repository.ts';
import { linkRefundPayout, listHeldRefunds, lockRefund } from '../payouts/refunds-repository.ts';
import { reissuePayout } from '../payouts/reissue-payout.ts';
import { createVaultSigner } from '../payouts/vault-signer.ts';
import { type OpsArgs, type OpsCommand, type OpsContext, UsageError } from './ops-commands.ts';

// docs/architecture.md "Operators", decision 002: see every payout that is not done, retry one, pay a held
// refund, and re-issue a failed payout to another address its winner signed for. Advancing re-sends
// the stored signed bytes (or replaces them at the same nonce when stuck): never a second payment.

export const payoutsCommands: OpsCommand[] = [
  {
    name: 'payouts:audit',
    usage: 'payouts:audit --from-block N [--to-block M]',
    summary:
      'Match every transfer the vault sent in those blocks to a payout row; run it after a database restore, before claims reopen (exit 1 if any is unknown)',
    options: { 'from-block': { type: 'string' }, 'to-block': { type: 'string' } },
    async run(context, { values }) {
      const block = (name: string) => {
        const text = values[name];
        if (text === undefined) return undefined;
        if (typeof text !== 'string' || !/^[0-9]+$/.test(text))
          throw new UsageError(`--${name} takes a block number.`);
        return BigInt(text);
      };
      const fromBlock = block('from-block');
      if (fromBlock === undefined)
        throw new UsageError('Give --from-block: the block of the backup, or earlier.');
      const chain = context.chain ?? createChainClient(context.config.chain);
      const audit = await auditVaultOutflows(
        { db: context.db, chain, vaultAddress: context.config.vault.address },
        { fromBlock, toBlock: block('to-block') },
      );
      context.out(`${audit.blocks} block(s) read, ${audit.matched} vault transfer(s) match a payout.`);
      if (audit.operator) {
        context.out(
          `${audit.operator} transaction(s) are the operator key's own escrow calls (no vault money out).`,
        );
      }
      for (const { payoutId, txHash } of audit.unconfirmed) {
        context.out(
          `  payout #${payoutId} is mined (${txHash}) but not confirmed yet: the payouts job confirms it.`,
        );
      }
      for (const outflow of audit.unknown) {
        context.out(
          `  UNKNOWN ${outflow.txHash} block ${outflow.blockNumber} nonce ${outflow.nonce} → ${outflow.to ?? '(contract creation)'} ${formatBnbWithUnit(outflow.valueWei)} (${outflow.valueWei} wei)`,
        );
      }
      if (audit.unknown.length) {
        context.out(
          `${audit.unknown.length} vault transfer(s) are unknown to the database: keep claims closed and match each to the bets it paid before reopening (docs/operations.md).`,
        );
        throw new AppError('PAYOUT_FAILED', 'Vault transfers unknown to the database were found.');
      }
    },
  },
  {
    name: 'payouts:status',
    usage: 'payouts:status',
    summary:
      'Every open, failed and held payout: status, nonce, amount, recipient, attempts, last error, age',
    async run({ db, clock, out }) {
      const rows = await listPayoutsByStatus(db, ['created', 'signed', 'broadcast', 'failed']);
      const held = await listHeldRefunds(db);
      const now = clock.now().getTime();
      if (!rows.length && !held.length) return out('No open, failed or held payouts.');
      for (const row of rows) {
        out(
          `#${row.id} ${row.kind} ${row.status}  nonce ${row.nonce ?? '-'}  ${formatBnbWithUnit(row.amount)} (${row.amount} wei) → ${row.toAddress}  ` +
            `attempts ${row.attempts}  age ${formatAge(now - row.createdAt.getTime())}` +
            (row.txHash ? `  tx ${row.txHash}` : '') +
            (row.reissuedFrom ? `  re-issue of #${row.reissuedFrom}` : ''),
        );
        if (row.lastError) out(`    last error: ${row.lastError}`);
      }
      for (const payment of held) {
        out(
          `payment #${payment.id} refund held  ${formatBnbWithUnit(owedBackWei(payment))} (${owedBackWei(payment)} wei) → ${payment.fromAddress}  ` +
            `age ${formatAge(now - payment.createdAt.getTime())}`,
        );
        if (payment.refundLastError) out(`    why: ${payment.refundLastError}`);
      }
      out(`${rows.length} payout(s), ${held.length} held refund(s).`);
    },
  },
  {
    name: 'payouts:retry',
    usage: 'payouts:retry <payoutId>',
    summary: 'Advance one payout now: sign it, re-send its signed transaction, or replace it when stuck',
    async run(context, args) {
      const payout = await advancePayout(processorDeps(context), positiveId(args, 'payout'), {
        mayReplace: true,
      });
      context.out(
        `Payout #${payout.id}: ${payout.status}${payout.txHash ? ` (${payout.txHash})` : ''}${payout.lastError ? ` — ${payout.lastError}` : ''}`,
      );
    },
  },
  {
    name: 'payouts:pay-held',
    usage: 'payouts:pay-held <paymentId>',
    summary:
      'Pay a held refund anyway (it costs the vault about as much gas as it returns); the payouts job sends it',
    async run({ db, config, out }, args) {
      const paymentId = positiveId(args, 'payment');
      const signer = createVaultSigner(config);
      if (!signer) throw new UsageError('VAULT_PRIVATE_KEY is not configured.');
      const payout = await db.transaction(async (tx) => {
        const payment = await lockRefund(tx, paymentId, 'refund_held');
        if (!payment) throw new AppError('BAD_REQUEST', `Payment #${paymentId} is not a held refund.`);
        if (owedBackWei(payment) <= 0n)
          throw new AppError('BAD_REQUEST', `Payment #${paymentId} has nothing to refund (0 wei).`);
        const created = await insertPayout(tx, {
          chainId: config.chain.id,
          fromAddress: signer.address,
          toAddress: payment.fromAddress.toLowerCase(),
          amount: owedBackWei(payment),
          kind: 'refund',
        });
        await linkRefundPayout(tx, [paymentId], created.id);
        return created;
      });
      out(
        `Payment #${paymentId}: refund payout #${payout.id} of ${formatBnbWithUnit(payout.amount)} to ${payout.toAddress} created.`,
      );
    },
  },
  {
    name: 'payouts:reissue',
    usage: 'payouts:reissue <payoutId> --to <address> --expiry <unix seconds> --signature <0x…>',
    summary:
      "Pay a failed payout to another address, signed for by its recipient (EIP-712 PayoutReissue: app 'BNB Predict', chain id, payout id, new address, expiry)",
    options: { to: { type: 'string' }, expiry: { type: 'string' }, signature: { type: 'string' } },
    async run(context, args) {
      const { to, expiry, signature } = args.values;
      if (typeof to !== 'string') throw new UsageError('--to <address> is required.');
      if (typeof expiry !== 'string' || !/^[0-9]{1,12}$/.test(expiry))
        throw new UsageError('--expiry <unix seconds> is required.');
      if (typeof signature !== 'string' || !isHex(signature))
        throw new UsageError('--signature <0x…> is required.');
      const deps = processorDeps(context);
      const payout = await reissuePayout(
        {
          db: context.db,
          chain: deps.chain,
          chainId: context.config.chain.id,
          vaultAddress: deps.signer.address,
          now: context.clock.now(),
        },
        { payoutId: positiveId(args, 'payout'), newAddress: to, expiry: BigInt(expiry), signature },
      );
      context.out(
        `Payout #${payout.id} of ${formatBnbWithUnit(payout.amount)} to ${payout.toAddress} created (re-issue of #${payout.reissuedFrom}); the payouts job sends it.`,
      );
    },
  },
];

/** The processor as the server wires it; the ops context may carry a chain client (tests). */
function processorDeps(context: OpsContext): PayoutProcessorDeps {
  const signer = createVaultSigner(context.config);
  if (!signer) throw new UsageError('VAULT_PRIVATE_KEY is not configured.');
  return {
    db: context.db,
    chain: context.chain ?? createChainClient(context.config.chain),
    signer,
    confirmations: context.config.chain.confirmations,
    maxFeePerGas: context.config.payouts.maxFeePerGas,
  };
}

function positiveId(args: OpsArgs, what: string): number {
  const text = args.positionals[0] ?? '';
  if (!/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 2 ** 31 - 1)
    throw new UsageError(`Give the ${what} id as a positive whole number.`);
  return Number(text);
}

function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
