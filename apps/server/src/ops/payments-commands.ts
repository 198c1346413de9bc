import { normalizeAddress } from '@pm/core/address';
import { formatBnbWithUnit } from '@pm/core/money';
import { isHash } from 'viem';
import { createChainClient } from '../chain/chain-client.ts';
import { listUnresolvedEscrowDeposits } from '../payments/escrow-deposits-repository.ts';
import { listOpenEscrowRefunds } from '../payments/escrow-refunds-repository.ts';
import { listOpenPaymentRequests } from '../payments/payment-requests-repository.ts';
import { findKnownPayments, insertRefundDuePayment } from '../payments/payments-repository.ts';
import { listUnresolvedVaultTransfers } from '../payments/vault-transfers-repository.ts';
import { refundTransferProblems } from './check-refund-transfer.ts';
import { type OpsCommand, UsageError } from './ops-commands.ts';

// Issue 9: what the money path is still working on, and the operator's hand for money it cannot
// see on its own (docs/security.md "Payments sent through contracts").

export const paymentsCommands: OpsCommand[] = [
  {
    name: 'payments:status',
    usage: 'payments:status',
    summary:
      'List vault transfers, escrow deposits, refunds of refused deposits and payment requests not settled yet, with attempts and last error.',
    async run({ db, clock, out }) {
      const now = clock.now().getTime();
      const age = (time: Date) => `${Math.round((now - time.getTime()) / 1000)} s`;
      const transfers = await listUnresolvedVaultTransfers(db);
      out(`Vault transfers being settled: ${transfers.length}`);
      for (const row of transfers) {
        out(
          `  ${row.txHash} from ${row.fromAddress} ${formatBnbWithUnit(row.amount, { decimals: 18, trim: true })}` +
            ` block ${row.blockNumber} age ${age(row.blockTime)} attempts ${row.attempts}` +
            ` next ${row.nextAttemptAt.toISOString()}${row.lastError ? ` last error: ${row.lastError}` : ''}`,
        );
      }
      const deposits = await listUnresolvedEscrowDeposits(db);
      out(`Escrow deposits being settled: ${deposits.length}`);
      for (const row of deposits) {
        out(
          `  stake ${row.stakeId} ${row.txHash} by ${row.owner} ${formatBnbWithUnit(row.amount, { decimals: 18, trim: true })}` +
            ` kind ${row.kind} block ${row.blockNumber} age ${age(row.blockTime)} attempts ${row.attempts}` +
            ` next ${row.nextAttemptAt.toISOString()}${row.lastError ? ` last error: ${row.lastError}` : ''}`,
        );
      }
      const refunds = await listOpenEscrowRefunds(db);
      out(`Refused escrow deposits being given back: ${refunds.length}`);
      for (const row of refunds) {
        out(
          `  stake ${row.stakeId} to ${row.owner} ${formatBnbWithUnit(row.amount, { decimals: 18, trim: true })}` +
            ` ${row.reason} ${row.status} attempts ${row.attempts}${row.lastError ? ` last error: ${row.lastError}` : ''}`,
        );
      }
      const requests = await listOpenPaymentRequests(db);
      out(`Payment requests waiting for their transaction: ${requests.length}`);
      for (const row of requests) {
        out(
          `  ${row.txHash} ${row.purpose} from ${row.fromAddress ?? '?'} age ${age(row.createdAt)}` +
            ` attempts ${row.attempts}${row.lastError ? ` last error: ${row.lastError}` : ''}`,
        );
      }
    },
  },
  {
    name: 'refunds:add',
    usage: 'refunds:add <txHash> <toAddress> <amountWei> --reason "why" [--force]',
    summary:
      'Owe a refund for money the vault received in a transaction it cannot credit (e.g. sent through a contract wallet); the payouts job pays it.',
    options: { reason: { type: 'string' }, force: { type: 'boolean' } },
    async run({ db, config, out }, { positionals, values }) {
      const [txHash, to, amountText] = positionals;
      const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
      if (!txHash || !isHash(txHash))
        throw new UsageError('Give the transaction hash that brought the money.');
      if (!to) throw new UsageError('Give the address to refund.');
      if (!amountText || !/^[1-9][0-9]{0,77}$/.test(amountText))
        throw new UsageError('Give the amount in wei.');
      if (!reason) throw new UsageError('Say why, with --reason.');
      const toAddress = normalizeAddress(to);
      if ((await findKnownPayments(db, config.chain.id, txHash)).length > 0) {
        throw new UsageError('That transaction is already a payment (a bet or a refund).');
      }
      // The money must really have arrived: the transaction succeeded on this chain.
      const chain = createChainClient(config.chain);
      const receipt = await chain.getTransactionReceipt({ hash: txHash });
      if (receipt.status !== 'success') throw new UsageError('That transaction reverted: it moved no money.');
      // Final, canonical, and the vault received at least the amount (security review 2, N9);
      // --force owes it anyway, said so here and on the row.
      const problems = await refundTransferProblems(chain, {
        receipt,
        vault: config.vault.address,
        amountWei: BigInt(amountText),
        confirmations: config.chain.confirmations,
      });
      const forced = values.force === true && problems.length > 0;
      if (problems.length > 0 && !forced) {
        throw new UsageError(`Not owed: ${problems.join('; ')}. Check it; --force owes it anyway.`);
      }
      if (forced) out(`Forced past: ${problems.join('; ')}.`);
      const block = await chain.getBlock({ blockHash: receipt.blockHash });
      await insertRefundDuePayment(db, {
        chainId: config.chain.id,
        payment: {
          txHash,
          from: toAddress,
          amountWei: BigInt(amountText),
          intentText: '',
          blockNumber: receipt.blockNumber,
          blockTime: new Date(Number(block.timestamp) * 1000),
        },
        purpose: 'unknown',
        reason: `${forced ? 'OPERATOR (forced)' : 'OPERATOR'}: ${reason.slice(0, 200)}`,
      });
      out(
        `Refund of ${formatBnbWithUnit(BigInt(amountText), { decimals: 18, trim: true })} to ${toAddress} is owed; the payouts job pays it.`,
      );
    },
  },
];
