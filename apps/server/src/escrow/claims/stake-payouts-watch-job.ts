import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { FastifyBaseLogger } from 'fastify';
import type { Address, PublicClient } from 'viem';
import { readFinalHeight, unavailableOnFailure } from '../../chain/finality.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { readChainCursor, writeChainCursor } from '../deposits/escrow-deposits-repository.ts';
import { readCanonicalBlocks } from '../deposits/scan-deposits.ts';
import { stakesPaidIn } from '../escrow-chain.ts';
import { findBettorStakeIds, recordStakesPaid } from './escrow-relays-repository.ts';

// Decision 026, "Claims": a stake can leave the escrow without the server asking: the wallet's own
// `claim` or `refund` with the published proof, anyone's escape-hatch `refund` after the escape delay,
// or a `withdraw` of a credit. The relays record what they send; this job records the rest, at once,
// from the chain: every `Claimed` and `Refunded` (with its `Credited`) of final, canonical blocks,
// read from a cursor, for the stakes the app holds as bets and bonds. A stake already recorded (a
// relay's own receipt) is left as it is (escrow_stake_payouts is keyed by the stake: once only).

export const STAKE_PAYOUTS_CURSOR = 'escrow-stake-payouts';

export type StakePayoutsWatchDeps = {
  db: Db;
  chain: PublicClient;
  escrow: Address;
  confirmations: number | 'finalized';
  log?: FastifyBaseLogger;
  /** The first block a first run reads: the escrow's deployment block (ESCROW_DEPLOY_BLOCK). */
  startFrom: bigint;
  /** Most blocks one run reads (default 2,000), in calls of at most `maxBlockSpan` (default 1,000). */
  maxBlocks?: number;
  maxBlockSpan?: number;
  metrics?: Pick<Metrics, 'recordEscrowScanLag'>;
};

export type StakePayoutsScan = { scannedTo: bigint | null; found: number; recorded: number };

/** One step: the next range of final blocks, its payouts recorded and the cursor moved, in one transaction. */
export async function watchStakePayouts(deps: StakePayoutsWatchDeps): Promise<StakePayoutsScan> {
  const finalHeight = await unavailableOnFailure(readFinalHeight(deps.chain, deps.confirmations));
  if (finalHeight === null) return { scannedTo: null, found: 0, recorded: 0 };
  const cursor = await readChainCursor(deps.db, STAKE_PAYOUTS_CURSOR);
  // A first run reads from the escrow's deployment: a stake paid before the server first started is
  // recorded like any other.
  const fromBlock = cursor === undefined ? deps.startFrom : cursor + 1n;
  if (fromBlock > finalHeight) {
    deps.metrics?.recordEscrowScanLag('stake-payouts', 0n);
    return { scannedTo: null, found: 0, recorded: 0 };
  }
  const last = fromBlock + BigInt(deps.maxBlocks ?? 2_000) - 1n;
  const toBlock = last < finalHeight ? last : finalHeight;

  const span = BigInt(deps.maxBlockSpan ?? 1_000);
  const logs = [];
  for (let from = fromBlock; from <= toBlock; from += span) {
    const to = from + span - 1n < toBlock ? from + span - 1n : toBlock;
    logs.push(...(await readPayoutLogs(deps, from, to)));
  }
  const live = logs.filter((log) => !log.removed);
  await readCanonicalBlocks(deps.chain, live);
  const paid = stakesPaidIn(deps.escrow, live);
  const ours = await findBettorStakeIds(
    deps.db,
    paid.map((stake) => stake.stakeId),
  );
  const toRecord = paid.filter((stake) => ours.has(stake.stakeId));
  const recorded = await deps.db.transaction(async (tx) => {
    const stakeIds = await recordStakesPaid(tx, toRecord, null);
    await writeChainCursor(tx, { name: STAKE_PAYOUTS_CURSOR, blockNumber: toBlock });
    return stakeIds.length;
  });
  if (recorded > 0) {
    deps.log?.info(
      { fromBlock: String(fromBlock), toBlock: String(toBlock), recorded },
      'escrow stakes paid outside a relay (a wallet claim, an escape refund): recorded',
    );
  }
  deps.metrics?.recordEscrowScanLag('stake-payouts', finalHeight - toBlock);
  return { scannedTo: toBlock, found: toRecord.length, recorded };
}

async function readPayoutLogs(deps: StakePayoutsWatchDeps, fromBlock: bigint, toBlock: bigint) {
  const query = { address: deps.escrow, abi: predictionEscrowAbi, strict: true, fromBlock, toBlock } as const;
  try {
    const [claimed, refunded, credited] = await Promise.all([
      deps.chain.getContractEvents({ ...query, eventName: 'Claimed' }),
      deps.chain.getContractEvents({ ...query, eventName: 'Refunded' }),
      deps.chain.getContractEvents({ ...query, eventName: 'Credited' }),
    ]);
    return [...claimed, ...refunded, ...credited];
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

/** The watcher as a job: read-only on the chain, one transaction per step; safe on every instance. */
export function createStakePayoutsWatchJob(deps: StakePayoutsWatchDeps, intervalMs = 5_000): Job {
  return {
    name: 'escrow-stake-payouts',
    intervalMs,
    async run() {
      await watchStakePayouts(deps);
    },
  };
}
