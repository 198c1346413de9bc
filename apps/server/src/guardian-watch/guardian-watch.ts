import { decodeRevert, formatRevert } from '@pm/escrow/decode-revert';
import {
  type JudgedSettlementCheck,
  verifyJudgedSettlement,
} from '@pm/escrow/judged-payouts/verify-judged-settlement';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import type { Logger } from 'pino';
import {
  type AbiEvent,
  type Address,
  BaseError,
  type Chain,
  getAddress,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  parseEventLogs,
  type Transport,
  type WalletClient,
} from 'viem';
import { type Confirmations, readFinalHeight } from '../chain/finality.ts';
import { describeError } from '../errors/describe-error.ts';
import type { GuardianMetrics } from './guardian-metrics.ts';

// The guardian's watcher (docs/custody.md "Running it safely", docs/decisions/034): it follows
// MarketEscrow's final blocks for judged settlements, recomputes each from public data alone (the
// market's deposits, refunds, disputes and claims on chain, the verdict the settlement posts, and our
// fee rate MARKET_FEE_BPS: decision 034 "The judged fee rate is a setting of ours") with
// verifyJudgedSettlement, and vetoes one it cannot recompute before its payouts open. It trusts
// neither the server nor its database, and needs neither: only an RPC and the guardian's key.
//
// The cursor is kept in memory. On each start the watcher reads every `Settled` since the deployment
// block again (one log query per block range) and checks each settlement still in its payout delay,
// so a restart misses nothing a veto could still change; a file would only spare that one scan, and a
// stale one (a data folder restored or copied) would skip settlements.

/** MarketEscrow's `Settled` and `JudgedMarketCreated`: what the watcher scans for. */
const SCANNED_EVENTS = marketEscrowAbi.filter(
  (item): item is Extract<(typeof marketEscrowAbi)[number], { type: 'event' }> =>
    item.type === 'event' && (item.name === 'Settled' || item.name === 'JudgedMarketCreated'),
) as unknown as AbiEvent[];

/** `MarketEscrow.State.Settled`. */
const STATE_SETTLED = 2;

export type GuardianWallet = WalletClient<Transport, Chain, PrivateKeyAccount>;

/** The lines the watcher logs: the server's pino logger (createLogger: secrets blanked). */
export type GuardianLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export type GuardianWatchDeps = {
  /** Reads the chain (the final blocks, the market's events). */
  client: PublicClient;
  /** Signs the vetoes: the escrow's guardian. */
  guardian: GuardianWallet;
  escrow: Address;
  /** Where reading the escrow's events starts: its deployment block. */
  deployBlock: bigint;
  /** The judged markets' fee in basis points of the losing pool (MARKET_FEE_BPS). */
  feeBps: number;
  /** When a block is final (CONFIRMATIONS): only final blocks are judged. */
  confirmations: Confirmations;
  /** Most blocks per eth_getLogs request, for RPCs that cap the range; unset: one request a scan. */
  maxBlockRange?: bigint;
  logger: GuardianLogger;
  metrics: GuardianMetrics;
};

/** What one pass did, market by market (for tests and the CLI's first line). */
export type GuardianPass = {
  /** The final height read (null: the chain is shorter than the confirmations). */
  finalHeight: bigint | null;
  /** The last block whose settlements were read (null: none yet). */
  scannedTo: bigint | null;
  agreed: Hex[];
  vetoed: Array<{ market: Hex; transactionHash: Hash; sentences: string[] }>;
  /** Differs, but its payouts opened before a veto could land. */
  tooLate: Hex[];
  /** Its settlement was taken back (or changed) before the check: nothing to veto. */
  nothingInForce: Hex[];
  /** A read or the veto failed: tried again next pass. */
  retried: Hex[];
  /** The scan itself failed (the final height or the logs): tried again from the same block. */
  scanFailed: boolean;
};

type Due = {
  /** The block of the latest `Settled` seen. */
  settledAt: bigint;
  claimableAt: bigint;
  /** The settlement (its transaction) already counted as checked, so a retried veto counts once. */
  counted: Hash | null;
};

/** A pass's failure the watcher tries again: an RPC that did not answer, a veto not mined. */
class TransientError extends Error {
  override name = 'TransientError';
}

/**
 * The watcher's state and its one pass (`checkOnce`). A pass reads the final height, scans the final
 * blocks not read yet for `Settled`, and decides every settlement found and not decided yet: agrees
 * (logged), differs while pending (vetoed, logged as an error), differs with its payouts open (too
 * late: logged as an error), or taken back meanwhile. A failed read keeps the settlement for the next
 * pass and is never read as a difference; one market's failure never stops the others.
 */
export function createGuardianWatch(deps: GuardianWatchDeps) {
  const { client, escrow, logger, metrics } = deps;
  const escrowAddress = getAddress(escrow);
  /** The next block to scan. */
  let cursor = deps.deployBlock;
  /** The final height at the first pass: settlements opened before it predate this watcher. */
  let startHeight: bigint | null = null;
  /** Each judged market's creation block, so its events are read from there, not from the deployment. */
  const createdAt = new Map<Hex, bigint>();
  const due = new Map<Hex, Due>();

  async function checkOnce(): Promise<GuardianPass> {
    const pass: GuardianPass = {
      finalHeight: null,
      scannedTo: cursor > deps.deployBlock ? cursor - 1n : null,
      agreed: [],
      vetoed: [],
      tooLate: [],
      nothingInForce: [],
      retried: [],
      scanFailed: false,
    };
    let finalTime: bigint;
    try {
      pass.finalHeight = await readFinalHeight(client, deps.confirmations);
      if (pass.finalHeight === null || pass.finalHeight < deps.deployBlock) return pass;
      finalTime = (await client.getBlock({ blockNumber: pass.finalHeight })).timestamp;
    } catch (error) {
      return scanFailure(pass, error, 'could not read the final block');
    }
    const firstPass = startHeight === null;
    startHeight ??= pass.finalHeight;
    let before = 0;
    try {
      before = await scan(pass.finalHeight, finalTime, firstPass);
    } catch (error) {
      scanFailure(pass, error, `could not read the settlements from block ${cursor}`);
    }
    pass.scannedTo = cursor > deps.deployBlock ? cursor - 1n : null;
    if (firstPass && before > 0) {
      logger.info(
        { settlements: before, escrow: escrowAddress },
        `${before} settlements had opened their payouts before this start: no veto can change them, so they are not checked here (vault:verify checks a paid settlement)`,
      );
    }
    const scannedTo = pass.scannedTo;
    if (scannedTo !== null) {
      for (const [market, entry] of due) {
        try {
          await decide(market, entry, scannedTo, pass);
        } catch (error) {
          pass.retried.push(market);
          metrics.countFailure();
          logger.warn(
            { market, err: describeError(error) },
            `guardian: the check of market ${market}'s settlement failed (${describeError(error)}): it is tried again next pass, never read as a difference`,
          );
        }
      }
    }
    metrics.waiting(due.size);
    if (pass.scannedTo !== null) metrics.scannedBlock(pass.scannedTo);
    if (!pass.scanFailed && pass.retried.length === 0) metrics.passCompleted(Date.now());
    return pass;
  }

  function scanFailure(pass: GuardianPass, error: unknown, what: string): GuardianPass {
    pass.scanFailed = true;
    metrics.countFailure();
    logger.warn(
      { escrow: escrowAddress, fromBlock: String(cursor), err: describeError(error) },
      `guardian: ${what} (${describeError(error)}): tried again next pass`,
    );
    return pass;
  }

  /**
   * Reads `Settled` and `JudgedMarketCreated` from the cursor to `finalHeight`, one range at a time
   * (the cursor moves after each), and marks each settled market due. Answers how many settlements
   * of the first pass were past their delay already at this start, and so are not checked.
   */
  async function scan(finalHeight: bigint, finalTime: bigint, firstPass: boolean): Promise<number> {
    let skipped = 0;
    const step = deps.maxBlockRange ?? finalHeight - cursor + 1n;
    while (cursor <= finalHeight) {
      const toBlock = cursor + step - 1n < finalHeight ? cursor + step - 1n : finalHeight;
      const logs = await client.getLogs({
        address: escrowAddress,
        events: SCANNED_EVENTS,
        fromBlock: cursor,
        toBlock,
      });
      const events = parseEventLogs({
        abi: marketEscrowAbi,
        logs: logs.filter((log) => !log.removed),
        strict: true,
      });
      for (const event of events) {
        if (event.eventName === 'JudgedMarketCreated') {
          createdAt.set(event.args.market, event.blockNumber);
        } else if (event.eventName === 'Settled') {
          const { market, claimableAt } = event.args;
          if (firstPass && claimableAt <= finalTime) {
            // Past its delay at this start: nothing a veto could still change.
            if (!due.has(market)) skipped += 1;
            continue;
          }
          due.set(market, { settledAt: event.blockNumber, claimableAt, counted: null });
        }
      }
      cursor = toBlock + 1n;
    }
    return skipped;
  }

  async function decide(market: Hex, entry: Due, scannedTo: bigint, pass: GuardianPass): Promise<void> {
    let check: JudgedSettlementCheck;
    try {
      check = await verifyJudgedSettlement(client, escrowAddress, market, {
        feeBps: deps.feeBps,
        fromBlock: createdAt.get(market) ?? deps.deployBlock,
        toBlock: scannedTo,
        ...(deps.maxBlockRange === undefined ? {} : { maxBlockRange: deps.maxBlockRange }),
      });
    } catch (error) {
      // What the rules refuse to compute (a RangeError) is a settlement nobody can recompute; anything
      // else (an RPC fault above all) is no verdict on the settlement and is tried again.
      if (!(error instanceof RangeError) || error instanceof BaseError) throw error;
      check = cannotRecompute(error);
    }
    const settledAfterStart = startHeight !== null && entry.settledAt > startHeight;
    if (check.status === 'none') {
      due.delete(market);
      pass.nothingInForce.push(market);
      logger.info({ market }, `guardian: market ${market} has no settlement in force: ${check.sentences[0]}`);
      return;
    }
    const posted = check.posted;
    const transaction = posted?.transactionHash ?? null;
    if (entry.counted !== transaction || transaction === null) {
      metrics.countChecked(check.status === 'agrees' ? 'agrees' : 'differs');
      entry.counted = transaction;
    }
    const fields = {
      market,
      escrow: escrowAddress,
      settledAtBlock: posted ? String(posted.blockNumber) : undefined,
      transactionHash: transaction ?? undefined,
      outcome: posted?.outcome,
      payoutRoot: posted?.payoutRoot,
      payoutTotalWei: posted ? String(posted.payoutTotal) : undefined,
      feeWei: posted ? String(posted.fee) : undefined,
      claimableAt: posted ? Number(posted.claimableAt) : undefined,
      feeBps: deps.feeBps,
    };
    if (check.status === 'agrees') {
      due.delete(market);
      pass.agreed.push(market);
      logger.info(
        {
          ...fields,
          deposits: check.read.deposits,
          refunds: check.read.refunds,
          disputes: check.read.disputes,
        },
        `guardian: market ${market}'s settlement agrees with the rules' recomputation (root, total and fee)`,
      );
      return;
    }

    const difference = check.sentences.join(' ');
    if (posted !== null && posted.standing === 'claimable') {
      due.delete(market);
      pass.tooLate.push(market);
      if (settledAfterStart) metrics.countMissed();
      logger.error(
        { ...fields, differences: check.sentences },
        `guardian: market ${market}'s settlement differs from the rules and its payouts opened before a veto: ${difference}`,
      );
      return;
    }

    // The head may hold what the final block does not yet: the operator's amendment or withdrawal, a
    // dispute, another veto. A veto lands at the head, so it is sent only while the settlement there is
    // the one checked; a new one is checked once its block is final.
    const [, , claimableAt, , state] = await client.readContract({
      address: escrowAddress,
      abi: marketEscrowAbi,
      functionName: 'markets',
      args: [market],
    });
    const [, payoutRoot] = await client.readContract({
      address: escrowAddress,
      abi: marketEscrowAbi,
      functionName: 'judgements',
      args: [market],
    });
    const changed =
      state !== STATE_SETTLED ||
      BigInt(claimableAt) !== (posted?.claimableAt ?? entry.claimableAt) ||
      (posted !== null && payoutRoot !== posted.payoutRoot);
    if (changed) {
      due.delete(market);
      pass.nothingInForce.push(market);
      logger.warn(
        { ...fields, differences: check.sentences },
        `guardian: market ${market}'s settlement differs from the rules, but the chain's head holds another state of it already (taken back, amended or vetoed): the next settlement is checked once final. ${difference}`,
      );
      return;
    }

    const vetoed = await veto(market);
    if (vetoed.status === 'not-vetoable') {
      due.delete(market);
      pass.tooLate.push(market);
      metrics.countMissed();
      logger.error(
        { ...fields, differences: check.sentences, revert: vetoed.reason },
        `guardian: market ${market}'s settlement differs from the rules and the escrow refused the veto (${vetoed.reason}): ${difference}`,
      );
      return;
    }
    due.delete(market);
    metrics.countVeto();
    pass.vetoed.push({ market, transactionHash: vetoed.transactionHash, sentences: check.sentences });
    logger.error(
      {
        ...fields,
        differences: check.sentences,
        vetoTransaction: vetoed.transactionHash,
        vetoBlock: String(vetoed.blockNumber),
        guardian: deps.guardian.account.address,
      },
      `guardian: VETOED market ${market}'s settlement: it differs from the rules' recomputation, and every stake is refunded: ${difference}`,
    );
  }

  /** Simulated first (a refusal named), then sent and waited for; an RPC fault throws (tried again). */
  async function veto(
    market: Hex,
  ): Promise<
    | { status: 'vetoed'; transactionHash: Hash; blockNumber: bigint }
    | { status: 'not-vetoable'; reason: string }
  > {
    const { guardian } = deps;
    try {
      await client.simulateContract({
        address: escrowAddress,
        abi: marketEscrowAbi,
        functionName: 'veto',
        args: [market],
        account: guardian.account,
      });
    } catch (error) {
      const revert = decodeRevert(error, marketEscrowAbi);
      if (!revert) throw error;
      return { status: 'not-vetoable', reason: formatRevert(revert) };
    }
    const hash = await guardian.writeContract({
      address: escrowAddress,
      abi: marketEscrowAbi,
      functionName: 'veto',
      args: [market],
    });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000 });
    if (receipt.status !== 'success') {
      throw new TransientError(`the veto ${hash} reverted in block ${receipt.blockNumber}`);
    }
    return { status: 'vetoed', transactionHash: hash, blockNumber: receipt.blockNumber };
  }

  return {
    checkOnce,
    /** The markets found and not decided yet (a read failed): tried again next pass. */
    waiting: () => [...due.keys()],
  };
}

export type GuardianWatch = ReturnType<typeof createGuardianWatch>;

/** A settlement the rules cannot even compute: a difference, with the rules' refusal as its sentence. */
function cannotRecompute(error: RangeError): JudgedSettlementCheck {
  return {
    status: 'differs',
    sentences: [`The rules cannot recompute this settlement: ${error.message}.`],
    posted: null,
    expected: null,
    read: {
      escrow: '0x0000000000000000000000000000000000000000',
      marketKey: '0x',
      feeBps: 0,
      fromBlock: 0n,
      toBlock: 0n,
      atS: 0n,
      events: 0,
      deposits: 0,
      refunds: 0,
      disputes: 0,
      claims: 0,
    },
  };
}
