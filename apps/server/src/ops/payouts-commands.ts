import { asc, inArray } from 'drizzle-orm';
import { createChainClient } from '../chain/chain-client.ts';
import { payouts } from '../db/schema.ts';
import { advancePayout } from '../payouts/payout-processor.ts';
import { createVaultSigner } from '../payouts/vault-signer.ts';
import { type OpsCommand, UsageError } from './ops-commands.ts';

// DESIGN "Operators": retry a payout. Advancing re-sends the stored signed bytes (or replaces them
// at the same nonce when stuck): never a second payment.

export const payoutsCommands: OpsCommand[] = [
  {
    name: 'payouts:open',
    usage: 'payouts:open',
    summary: 'List payouts that are not confirmed yet',
    async run({ db, out }) {
      const rows = await db
        .select()
        .from(payouts)
        .where(inArray(payouts.status, ['created', 'signed', 'broadcast']))
        .orderBy(asc(payouts.nonce));
      if (!rows.length) return out('No open payouts.');
      for (const row of rows) {
        out(
          `#${row.id} ${row.kind} ${row.status} nonce ${row.nonce} → ${row.toAddress} ${row.amount} wei ${row.txHash ?? ''} ${row.lastError ?? ''}`,
        );
      }
    },
  },
  {
    name: 'payouts:retry',
    usage: 'payouts:retry <payoutId>',
    summary: 'Advance one payout now: re-send its signed transaction, or replace it when stuck',
    async run({ db, config, out }, { positionals }) {
      const id = Number(positionals[0]);
      if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError('Give the payout id.');
      const signer = createVaultSigner(config);
      if (!signer) throw new UsageError('VAULT_PRIVATE_KEY is not configured.');
      const chain = createChainClient({ id: config.chain.id, rpcUrl: config.chain.rpcUrl });
      const payout = await advancePayout(
        { db, chain, signer, confirmations: config.chain.confirmations },
        id,
      );
      out(`Payout #${payout.id}: ${payout.status}${payout.txHash ? ` (${payout.txHash})` : ''}`);
    },
  },
];
