import type { Block, PublicClient } from 'viem';
import {
  blockTimeOf,
  type FinalityReads,
  readBlock,
  readFinalHeight,
  unavailableOnFailure,
} from '../../chain/finality.ts';
import { AppError } from '../../errors/app-error.ts';
import { type DepositEvent, decodeDeposits, depositedEvent, disputedEvent } from './deposit-events.ts';

// docs/architecture.md "Payment verification", deposits: every
// deposit the escrow took in a range of final blocks, for reconciliation to match with its request or
// refund, whether or not a browser ever posted it.

export type DepositScanDeps = Pick<FinalityReads, 'confirmations'> & {
  client: PublicClient;
  escrowAddress: `0x${string}`;
  /**
   * Most blocks one `eth_getLogs` call spans (default 1,000): providers cap a call's range, some at a
   * few thousand blocks, some lower, and refuse a wider one.
   */
  maxBlockSpan?: number;
};

export type DepositScan = {
  /** Every deposit of the blocks scanned, in chain order (block, then log index). */
  deposits: DepositEvent[];
  /** The last block scanned: `toBlock`, or the final height if lower; null if nothing was final yet. */
  scannedTo: bigint | null;
  /** The final height the scan read (null: none yet). */
  finalHeight: bigint | null;
};

/**
 * The escrow's deposits from `fromBlock` to `toBlock`, inclusive, but never past the final height. A
 * log counts only if its block is the canonical block at its height (its hash is checked against a
 * block read of that height; the reads go out together, one JSON-RPC batch where the transport
 * batches). A final block that is not canonical means the node answering the logs, or the one answering
 * the blocks, is on another fork: the deposits of that height cannot be known, so the whole scan is
 * CHAIN_UNAVAILABLE, to be retried, rather than a block passed over with deposits missing.
 */
export async function scanFinalDeposits(
  deps: DepositScanDeps,
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<DepositScan> {
  const span = BigInt(deps.maxBlockSpan ?? 1_000);
  if (span < 1n) throw new RangeError(`maxBlockSpan must be at least 1, got ${deps.maxBlockSpan}`);
  const finalHeight = await unavailableOnFailure(readFinalHeight(deps.client, deps.confirmations));
  if (finalHeight === null) return { deposits: [], scannedTo: null, finalHeight };
  const last = range.toBlock < finalHeight ? range.toBlock : finalHeight;
  if (last < range.fromBlock) return { deposits: [], scannedTo: null, finalHeight };

  const logs = [];
  for (let from = range.fromBlock; from <= last; from += span) {
    const to = from + span - 1n < last ? from + span - 1n : last;
    logs.push(...(await readLogs(deps, from, to)));
  }
  const live = logs.filter((log) => !log.removed);

  const canonical = await readCanonicalBlocks(deps.client, live);

  const deposits = decodeDeposits(live, deps.escrowAddress, (blockNumber) => {
    const block = canonical.get(blockNumber);
    if (!block) throw new Error(`block ${blockNumber} was not read`);
    return blockTimeOf(block);
  });
  deposits.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  return { deposits, scannedTo: last, finalHeight };
}

/**
 * The canonical block at each height these logs name, read together (one JSON-RPC batch where the
 * transport batches). A log whose block is not the canonical one there means the node answering the
 * logs, or the one answering the blocks, is on another fork: CHAIN_UNAVAILABLE, to be retried, never a
 * height passed over with events missing.
 */
export async function readCanonicalBlocks(
  client: PublicClient,
  logs: ReadonlyArray<{ blockNumber: bigint; blockHash: `0x${string}` }>,
): Promise<Map<bigint, Block<bigint, false>>> {
  const heights = [...new Set(logs.map((log) => log.blockNumber))];
  const blocks = await Promise.all(heights.map((blockNumber) => readBlock(client, { blockNumber })));
  const canonical = new Map(
    blocks.flatMap((block) => (block.number === null ? [] : [[block.number, block] as const])),
  );
  for (const log of logs) {
    if (canonical.get(log.blockNumber)?.hash !== log.blockHash) {
      throw new AppError(
        'CHAIN_UNAVAILABLE',
        `The node's logs name block ${log.blockHash} at height ${log.blockNumber}, which is not the canonical block there. Please try again.`,
      );
    }
  }
  return canonical;
}

async function readLogs(deps: DepositScanDeps, fromBlock: bigint, toBlock: bigint) {
  try {
    return await deps.client.getLogs({
      address: deps.escrowAddress,
      // A dispute's `Disputed` comes with its `Deposited` (decision 026): read together, each deposit says.
      events: [depositedEvent, disputedEvent],
      fromBlock,
      toBlock,
      strict: true,
    });
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}
