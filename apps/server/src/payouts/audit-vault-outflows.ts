import type { PublicClient } from 'viem';
import type { Db } from '../db/client.ts';
import { listOperatorTxHashes } from '../operator-sender/operator-transactions-repository.ts';
import { listVaultPayoutHashes } from './payouts-repository.ts';

type VaultOutflow = {
  txHash: string;
  to: string | null;
  valueWei: bigint;
  nonce: number;
  blockNumber: bigint;
};

export type OutflowAudit = {
  blocks: number;
  /** Transfers from the vault that a payout row knows (any hash it signed, or its nonce release). */
  matched: number;
  /**
   * Transactions of the vault key's operator actions (refunds of refused escrow deposits, decision 026):
   * calls to the escrow, which move no vault money out (the escrow pays, the key pays only gas).
   */
  operator: number;
  /** Transfers from the vault no payout row knows: paid by a payout the database has lost. */
  unknown: VaultOutflow[];
  /** Payout rows not confirmed although one of their transactions is on chain (the job confirms them). */
  unconfirmed: { payoutId: number; txHash: string }[];
};

/**
 * Review F21: after a database restore, payouts sent after the backup are missing from the database
 * and their bets are claimable again. Before claims reopen, every transfer the vault sent since the
 * backup's block is matched to a payout row; an unknown one means money the database does not know
 * it paid. Read-only: it reports, the operator decides (docs/operations.md).
 */
export async function auditVaultOutflows(
  deps: { db: Db; chain: PublicClient; vaultAddress: string },
  range: { fromBlock: bigint; toBlock?: bigint },
): Promise<OutflowAudit> {
  const vault = deps.vaultAddress.toLowerCase();
  const rows = await listVaultPayoutHashes(deps.db, vault);
  const operatorHashes = await listOperatorTxHashes(deps.db, vault);
  const owner = new Map<string, { id: number; status: string }>();
  for (const row of rows) {
    for (const hash of [...row.txHashes, row.cancelTxHash]) {
      if (hash) owner.set(hash.toLowerCase(), { id: row.id, status: row.status });
    }
  }

  const toBlock = range.toBlock ?? (await deps.chain.getBlockNumber({ cacheTime: 0 }));
  const audit: OutflowAudit = { blocks: 0, matched: 0, operator: 0, unknown: [], unconfirmed: [] };
  for (let number = range.fromBlock; number <= toBlock; number++) {
    const block = await deps.chain.getBlock({ blockNumber: number, includeTransactions: true });
    audit.blocks++;
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() !== vault) continue;
      const payout = owner.get(tx.hash.toLowerCase());
      // A transfer from the vault to itself that no payout made (an operator's own) moves no money out.
      if (!payout && tx.to?.toLowerCase() === vault) continue;
      if (!payout && tx.value === 0n && operatorHashes.has(tx.hash.toLowerCase())) {
        audit.operator++;
        continue;
      }
      if (!payout) {
        audit.unknown.push({
          txHash: tx.hash,
          to: tx.to?.toLowerCase() ?? null,
          valueWei: tx.value,
          nonce: tx.nonce,
          blockNumber: number,
        });
        continue;
      }
      audit.matched++;
      if (payout.status !== 'confirmed' && payout.status !== 'failed') {
        audit.unconfirmed.push({ payoutId: payout.id, txHash: tx.hash });
      }
    }
  }
  return audit;
}
