import { formatBnbWithUnit } from '@pm/core/money';
import { listUnresolvedEscrowDeposits } from '../escrow/deposits/escrow-deposits-repository.ts';
import { listOpenEscrowRefunds } from '../escrow/deposits/escrow-refunds-repository.ts';
import { listOpenPaymentRequests } from '../payments/payment-requests-repository.ts';
import type { OpsCommand } from './ops-commands.ts';

// What the money path is still working on (docs/decisions/010).

export const paymentsCommands: OpsCommand[] = [
  {
    name: 'payments:status',
    readOnly: true,
    usage: 'payments:status',
    summary:
      'List escrow deposits, refunds of refused deposits and payment requests not settled yet, with attempts and last error.',
    async run({ db, clock, out }) {
      const now = clock.now().getTime();
      const age = (time: Date) => `${Math.round((now - time.getTime()) / 1000)} s`;
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
];
