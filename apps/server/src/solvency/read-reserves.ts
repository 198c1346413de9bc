import { type ReservesReport, reservesReport } from '@pm/core/liabilities';
import type { PublicClient } from 'viem';
import type { DbOrTx } from '../db/client.ts';
import { readLiabilities } from './liabilities-repository.ts';

export type ReservesDeps = { db: DbOrTx; chain: PublicClient; vaultAddress: `0x${string}` };

/**
 * The vault's balance at a block against what it owes (docs/architecture.md "Proof of reserves").
 * The liabilities are read first, then the block number, then the balance at that block: the
 * database records a payout as paid only once it is final on chain, so everything it counts as
 * paid is already out of that block's balance, and a payout mined after the read is still counted
 * as owed while already gone from the balance (the figure errs on the side of looking short). The
 * other way, a transfer in that is mined but not yet recorded (nor found by reconciliation) is in
 * the balance and not yet in the liabilities, for the seconds until it is.
 */
export async function readReserves(deps: ReservesDeps): Promise<ReservesReport> {
  const liabilities = await readLiabilities(deps.db);
  const blockNumber = await deps.chain.getBlockNumber({ cacheTime: 0 });
  const vaultBalanceWei = await deps.chain.getBalance({ address: deps.vaultAddress, blockNumber });
  return reservesReport({ blockNumber, vaultBalanceWei, liabilities });
}
