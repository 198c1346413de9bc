import { marketClosesAt } from '@pm/escrow/deposit-terms';
import { MARKET_OUTCOME } from '@pm/escrow/market-settlement';
import { ROUND_OUTCOME, roundMarket } from '@pm/escrow/round-settlement';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, type PublicClient, zeroHash } from 'viem';
import { blockTimeOf, readFinalHeight, unavailableOnFailure } from '../../chain/finality.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { MarketFate } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { describeError } from '../../errors/describe-error.ts';
import { isTransientError } from '../../errors/transient-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { readChainCursor } from '../deposits/escrow-deposits-repository.ts';
import { readCanonicalBlocks } from '../deposits/scan-deposits.ts';
import { findMarketToSettle, findRound, supersedeByFate } from '../settlements/payout-lists-repository.ts';
import { decodeMarketFates, marketFateEvents } from './market-fate-events.ts';
import {
  type ClaimedMarketFate,
  claimNextMarketFate,
  endMarketFate,
  findMarketFateOwner,
  type MarketFateOwner,
  queueMarketFates,
  retryMarketFateAt,
} from './market-fates-repository.ts';

// docs/architecture.md "Following the chain", market fates: the escrow can turn a market to refunds
// without the server asking: the guardian's `veto` of a pending settlement (`Vetoed`), or, once a
// market is unsettled ESCAPE_DELAY after its close, anyone's `refund` (`Escaped`). The chain is the
// truth about money, so the app follows both: the scan reads final, canonical blocks' events from a
// cursor (starting at the escrow's deployment) and queues each; each queued fate is then applied on
// its own, in one transaction: the market or round is shown refunded by its own room (the handlers
// the app passes: the rooms sit above the escrow), and its settlement's row becomes a refund in full,
// marked with the fate, so the settlement job never posts it again. One fate's failure is written on
// its row and retried with a backoff; only failing to read the chain holds the cursor.

export const MARKET_FATES_CURSOR = 'escrow-market-fates';
/** A fate being applied is leased this long, so another instance leaves it alone meanwhile. */
const LEASE_S = 60;

/** How the rooms above the escrow show a market or a round refunded, in the fate's transaction. */
export type MarketFateHandlers = {
  refundMarket(tx: Tx, input: { marketId: number; fate: MarketFate; at: Date }): Promise<void>;
  refundRound(tx: Tx, input: { epoch: number; fate: MarketFate }): Promise<void>;
};

export type MarketFatesDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  escrow: Address;
  confirmations: number | 'finalized';
  now: () => Date;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  handlers: MarketFateHandlers;
  /** The first block a first run reads: the escrow's deployment block (ESCROW_DEPLOY_BLOCK). */
  startFrom: bigint;
  /** Most blocks one run reads (default 2,000), in calls of at most `maxBlockSpan` (default 1,000). */
  maxBlocks?: number;
  maxBlockSpan?: number;
  /** Fates applied per run (default 50). */
  maxRows?: number;
  metrics?: Pick<Metrics, 'recordEscrowScanLag' | 'countMarketFate'>;
};

/** One scan step: the next range of final blocks, its fates queued and the cursor moved, in one transaction. */
export async function scanMarketFates(
  deps: MarketFatesDeps,
): Promise<{ scannedTo: bigint | null; found: number }> {
  const finalHeight = await unavailableOnFailure(readFinalHeight(deps.chain, deps.confirmations));
  if (finalHeight === null) return { scannedTo: null, found: 0 };
  const cursor = await readChainCursor(deps.db, MARKET_FATES_CURSOR);
  const fromBlock = cursor === undefined ? deps.startFrom : cursor + 1n;
  if (fromBlock > finalHeight) {
    deps.metrics?.recordEscrowScanLag('market-fates', 0n);
    return { scannedTo: null, found: 0 };
  }
  const last = fromBlock + BigInt(deps.maxBlocks ?? 2_000) - 1n;
  const toBlock = last < finalHeight ? last : finalHeight;
  const span = BigInt(deps.maxBlockSpan ?? 1_000);
  const logs = [];
  for (let from = fromBlock; from <= toBlock; from += span) {
    const to = from + span - 1n < toBlock ? from + span - 1n : toBlock;
    logs.push(...(await readFateLogs(deps, from, to)));
  }
  const fates = decodeMarketFates(logs, deps.escrow);
  const canonical = await readCanonicalBlocks(deps.chain, fates);
  const rows = fates.map((fate) => {
    const block = canonical.get(fate.blockNumber);
    if (!block) throw new Error(`block ${fate.blockNumber} was not read`);
    return {
      chainId: deps.chainId,
      marketKey: fate.marketKey,
      fate: fate.fate,
      txHash: fate.txHash.toLowerCase(),
      logIndex: fate.logIndex,
      blockNumber: fate.blockNumber,
      blockTime: blockTimeOf(block),
      stakeIds: fate.stakeIds,
      nextAttemptAt: deps.now(),
    };
  });
  await deps.db.transaction((tx) =>
    queueMarketFates(tx, { name: MARKET_FATES_CURSOR, blockNumber: toBlock }, rows),
  );
  deps.metrics?.recordEscrowScanLag('market-fates', finalHeight - toBlock);
  return { scannedTo: toBlock, found: rows.length };
}

async function readFateLogs(deps: MarketFatesDeps, fromBlock: bigint, toBlock: bigint) {
  try {
    return await deps.chain.getLogs({
      address: deps.escrow,
      // An escape's `Refunded` comes in its transaction: read together, it names a stake of the market.
      events: marketFateEvents,
      fromBlock,
      toBlock,
      strict: true,
    });
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  }
}

/** Applies queued fates one at a time; a fate's failure is written on its row, never thrown. */
export async function applyMarketFates(deps: MarketFatesDeps): Promise<number> {
  let applied = 0;
  for (let n = 0; n < (deps.maxRows ?? 50); n++) {
    const now = deps.now();
    const row = await claimNextMarketFate(deps.db, {
      chainId: deps.chainId,
      now,
      leaseUntil: new Date(now.getTime() + LEASE_S * 1000),
    });
    if (!row) break;
    try {
      if (await applyFate(deps, row)) applied++;
    } catch (error) {
      const transient = isTransientError(error);
      deps.log?.[transient ? 'warn' : 'error'](
        {
          err: error,
          marketKey: row.market_key,
          fate: row.fate,
          txHash: row.tx_hash,
          attempts: row.attempts,
        },
        'applying an escrow market fate failed; it is retried later',
      );
      const backoffS = Math.min(600, 5 * 2 ** Math.min(row.attempts, 7));
      await retryMarketFateAt(
        deps.db,
        row.id,
        new Date(deps.now().getTime() + backoffS * 1000),
        describeError(error),
      ).catch((retryError: unknown) =>
        deps.log?.warn({ err: retryError }, 'could not record an escrow market fate failure'),
      );
    }
  }
  return applied;
}

async function applyFate(deps: MarketFatesDeps, row: ClaimedMarketFate): Promise<boolean> {
  const owner = await findMarketFateOwner(deps.db, { marketKey: row.market_key, stakeIds: row.stake_ids });
  const fields = { marketKey: row.market_key, fate: row.fate, txHash: row.tx_hash };
  if (!owner) {
    deps.log?.warn(fields, 'the escrow refunded a market this server has no record of: nothing to show');
    await endMarketFate(deps.db, row.id, 'unknown', 'no market or round of this server has this key');
    deps.metrics?.countMarketFate(row.fate, 'unknown');
    return false;
  }
  const at = row.block_time;
  const changed = await deps.db.transaction(async (tx) => {
    const superseded = await supersedeByFate(tx, {
      values: await settlementValues(tx, deps, row.market_key, owner),
      fate: row.fate,
      settledBlock: row.block_number,
      settledAt: at,
    });
    // False: the market's row has a fate already (applied before): nothing more to show.
    if (superseded) {
      if (owner.kind === 'market') {
        await deps.handlers.refundMarket(tx, { marketId: owner.marketId, fate: row.fate, at });
      } else await deps.handlers.refundRound(tx, { epoch: owner.epoch, fate: row.fate });
    }
    await endMarketFate(tx, row.id, 'applied');
    return superseded;
  });
  deps.metrics?.countMarketFate(row.fate, 'applied');
  deps.log?.[row.fate === 'vetoed' ? 'warn' : 'error'](
    { ...fields, ...owner, changed },
    row.fate === 'vetoed'
      ? 'the escrow guardian vetoed a settlement: the market is refunded in full'
      : 'a market was not settled within the escrow escape delay: it is refunded in full',
  );
  return true;
}

/** The settlement row a market or round gets when it has none (its settlement never came). */
async function settlementValues(tx: Tx, deps: MarketFatesDeps, marketKey: string, owner: MarketFateOwner) {
  const common = {
    chainId: deps.chainId,
    escrow: deps.escrow.toLowerCase(),
    marketKey,
    verdictHash: zeroHash,
  };
  if (owner.kind === 'round') {
    const round = await findRound(tx, owner.epoch);
    if (!round) throw new Error(`round ${owner.epoch} not found`);
    const market = roundMarket(owner.epoch, round.lockTime);
    return {
      ...common,
      epoch: owner.epoch,
      marketId: market.id,
      closesAt: market.closesAt,
      outcome: ROUND_OUTCOME.cancelled,
    };
  }
  const market = await findMarketToSettle(tx, owner.marketId);
  if (!market) throw new Error(`market ${owner.marketId} not found`);
  if (market.escrowId === null) throw new Error(`market ${owner.marketId} has no escrow id`);
  return {
    ...common,
    predictionMarketId: owner.marketId,
    marketId: market.escrowId.toLowerCase(),
    closesAt: marketClosesAt(market.deadline),
    outcome: MARKET_OUTCOME.VOID,
  };
}

/** The follower as a job: read-only on the chain, one transaction per fate; safe on every instance. */
export function createMarketFatesJob(deps: MarketFatesDeps, intervalMs = 5_000): Job {
  return {
    name: 'escrow-market-fates',
    intervalMs,
    async run() {
      let scanError: unknown;
      await scanMarketFates(deps).catch((error: unknown) => {
        scanError = error;
      });
      // Queued fates are applied even when the chain scan could not move.
      await applyMarketFates(deps);
      if (scanError) throw scanError;
    },
  };
}
