import { randomUUID } from 'node:crypto';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, encodeFunctionData, getAddress, type Hex, type PublicClient } from 'viem';
import { readFinalHeight } from '../../chain/finality.ts';
import type { Db } from '../../db/client.ts';
import { describeError } from '../../errors/describe-error.ts';
import type { Job } from '../../jobs/job-runner.ts';
import { advanceOperatorTx } from '../../operator-sender/operator-sender.ts';
import type { OperatorSenderDeps } from '../../operator-sender/operator-sender-deps.ts';
import {
  findOperatorTx,
  type OperatorTxRow,
} from '../../operator-sender/operator-transactions-repository.ts';
import { submitOperatorAction } from '../../operator-sender/submit-operator-action.ts';
import { findStakePaid, isStakeOpen, stakesPaidIn } from '../escrow-chain.ts';
import {
  countEscrowBetsAwaitingSettlement,
  type EscrowClaimableFilter,
  type EscrowClaimableStake,
  type EscrowRelayRow,
  endRelay,
  findRevertedRelaySince,
  insertRelay,
  listAllOpenRelays,
  listEscrowClaimable,
  listOpenRelays,
  lockClaims,
  nextEscrowClaimableAt,
  recordStakesPaid,
  relayTotals,
} from './escrow-relays-repository.ts';

// docs/architecture.md "Rounds on the escrow" and "Claims", decision 026 "Claim": POST /api/claims for
// round bets, market bets and returned flag bonds staked on the escrow. The operator key relays
// `claimMany` (winners, with their leaves' proofs) and `refundMany` (a refunded round's or voided
// market's stakes) and pays the gas; the money goes from the contract to each
// stake's owner and nowhere else. A bet is paid once its relay's final receipt says so (`Claimed` or
// `Refunded`, with `Credited` when the push failed: the owner withdraws that credit from the
// contract). Once only is the contract's: a spent stake's hash is zeroed, so before a relay each
// stake is read (`stakes(id)`) and a spent one is looked up in the chain's events and recorded, never
// relayed; a batch that fails anyway is released, never sent again as it was (the next claim reads
// each stake anew).

/** Most stakes in one relayed call: ~57k gas a claim, < 140k for a gas burner's (decision 025). */
export const MAX_RELAY_BATCH = 40;
/**
 * A relay's gas, signed as it is (`signAtCap`): the contract's worst case per stake (the claim, the
 * push's whole PAYOUT_GAS_CAP and the gas it keeps after a push) above a base. An estimate is not
 * trusted for a batch: an owner's code can run cheap under the estimate and burn its gas when sent,
 * and every push but the last would then find too little gas left (docs/security.md "Operator
 * transactions").
 */
const RELAY_BASE_GAS = 100_000n;
const RELAY_GAS_PER_STAKE = 150_000n;
/**
 * How long an owner whose relay reverted on chain is not relayed again: each attempt costs the
 * operator key its gas, so such an owner claims with their own wallet meanwhile.
 */
export const RELAY_REVERTED_BACKOFF_MS = 60 * 60_000;

export type EscrowClaimsDeps = {
  db: Db;
  chain: PublicClient;
  chainId: number;
  escrow: Address;
  /** The operator key's sender (its lane, simulation and capped gas). */
  sender: OperatorSenderDeps;
  confirmations: number | 'finalized';
  /** How long a claim request waits for its relays to be final before answering pending. */
  claimWaitMs: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  pollMs?: number;
};

export type EscrowRelayState = {
  relay: EscrowRelayRow;
  state: 'pending' | 'confirmed' | 'released';
  txHash: string | null;
  reason: string | null;
};

export type EscrowClaimResult = {
  /** What the relays in flight or done pay (the bets' returns), and how many bets. */
  totalWei: bigint;
  betsCount: number;
  /** The `claimMany` relay's transaction, and the `refundMany` one's (null: none). */
  claimTxHash: string | null;
  refundTxHash: string | null;
  /** none: nothing relayed; pending: a relay not final yet; confirmed: every relay final. */
  status: 'none' | 'pending' | 'confirmed';
  /** Why relays failed, when some did (their bets stay claimable). */
  failures: string[];
  /** When the next stake of the owner becomes claimable (its settlement's delay), if one waits. */
  nextClaimableAt: Date | null;
  /** Bets (and returned bonds) whose settlement is not final on chain yet. */
  awaitingSettlement: number;
};

/**
 * Relays every escrow-paid stake of `owner` in `filter` claimable now (round bets, market bets,
 * returned bonds: at most MAX_RELAY_BATCH winners and as many refunds per request), or answers the
 * relays already in flight for it (one relay per owner at a time, whatever its game), waiting up to
 * claimWaitMs for them to be final. Never throws for a relay that fails: it is released and reported.
 */
export async function relayEscrowClaims(
  deps: EscrowClaimsDeps,
  owner: string,
  filter: EscrowClaimableFilter = { games: 'all' },
): Promise<EscrowClaimResult> {
  let relays = await deps.db.transaction(async (tx) => {
    await lockClaims(tx);
    return listOpenRelays(tx, owner);
  });
  // Payouts open by the chain's clock (the contract checks the block's time), not the server's.
  const chainNow = await latestBlockTime(deps.chain);
  if (relays.length === 0) {
    const reverted = await findRevertedRelaySince(
      deps.db,
      owner,
      new Date(Date.now() - RELAY_REVERTED_BACKOFF_MS),
    );
    if (reverted) return backedOff(deps, owner, chainNow, reverted);
    relays = await startRelays(deps, owner, chainNow, filter);
  }

  const deadline = Date.now() + deps.claimWaitMs;
  let states: EscrowRelayState[] = [];
  for (;;) {
    states = [];
    for (const relay of relays) states.push(await followRelay(deps, relay, { advance: true }));
    if (states.every((state) => state.state !== 'pending') || Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 200));
  }

  const result: EscrowClaimResult = {
    totalWei: 0n,
    betsCount: 0,
    claimTxHash: null,
    refundTxHash: null,
    status: 'none',
    failures: [],
    nextClaimableAt: await nextEscrowClaimableAt(deps.db, owner, chainNow),
    awaitingSettlement: await countEscrowBetsAwaitingSettlement(deps.db, owner),
  };
  for (const state of states) {
    if (state.state === 'released') {
      result.failures.push(state.reason ?? 'the relay failed');
      continue;
    }
    const totals = await relayTotals(deps.db, state.relay.id);
    result.totalWei += totals.wei;
    result.betsCount += totals.count;
    if (state.relay.kind === 'claim') result.claimTxHash ??= state.txHash;
    else result.refundTxHash ??= state.txHash;
    if (state.state === 'pending') result.status = 'pending';
    else if (result.status === 'none') result.status = 'confirmed';
  }
  return result;
}

type Candidate = EscrowClaimableStake;

/** An owner whose relay reverted on chain lately: nothing is relayed; the wallet's own claim pays. */
async function backedOff(
  deps: EscrowClaimsDeps,
  owner: string,
  chainNow: Date,
  reverted: Date,
): Promise<EscrowClaimResult> {
  const until = new Date(reverted.getTime() + RELAY_REVERTED_BACKOFF_MS);
  return {
    totalWei: 0n,
    betsCount: 0,
    claimTxHash: null,
    refundTxHash: null,
    status: 'none',
    failures: [
      `a relay of this wallet's stakes reverted on chain, so none is relayed until ${until.toISOString()}: claim with the wallet itself`,
    ],
    nextClaimableAt: await nextEscrowClaimableAt(deps.db, owner, chainNow),
    awaitingSettlement: await countEscrowBetsAwaitingSettlement(deps.db, owner),
  };
}

async function latestBlockTime(chain: PublicClient): Promise<Date> {
  const block = await chain.getBlock({ blockTag: 'latest' });
  return new Date(Number(block.timestamp) * 1000);
}

/**
 * Reads each claimable stake on chain (a spent one is recorded from its events, not relayed), then,
 * under the claims lock, re-checks and queues one `claimMany` and one `refundMany` with their relays.
 * Another request's relays found under the lock are answered instead.
 */
async function startRelays(
  deps: EscrowClaimsDeps,
  owner: string,
  now: Date,
  filter: EscrowClaimableFilter,
): Promise<EscrowRelayRow[]> {
  const candidates = await listEscrowClaimable(deps.db, owner, now, {
    ...filter,
    limit: 2 * MAX_RELAY_BATCH,
  });
  const open: Candidate[] = [];
  for (const candidate of candidates) {
    const problem = candidateProblem(candidate);
    if (problem) {
      deps.log?.error({ ...candidate.ref, stakeId: String(candidate.stakeId) }, problem);
      continue;
    }
    const stakeId = candidate.stakeId as bigint;
    if (await isStakeOpen(deps.chain, deps.escrow, stakeId)) open.push(candidate);
    else await recordSpentStake(deps, candidate);
  }
  if (open.length === 0) return [];
  // An owner with code (a contract, or an account delegated by EIP-7702) runs code at each push:
  // relayed one stake per call, each attempt spends its stake (paid, or credited when the push fails).
  const batchSize = (await hasCode(deps.chain, owner)) ? 1 : MAX_RELAY_BATCH;

  return deps.db.transaction(async (tx) => {
    await lockClaims(tx);
    const existing = await listOpenRelays(tx, owner);
    if (existing.length > 0) return existing;
    const still = await listEscrowClaimable(tx, owner, now, {
      games: 'all',
      only: {
        oracleBetIds: open.flatMap(({ ref }) => ('oracleBetId' in ref ? [ref.oracleBetId] : [])),
        betIds: open.flatMap(({ ref }) => ('betId' in ref ? [ref.betId] : [])),
        flagIds: open.flatMap(({ ref }) => ('flagId' in ref ? [ref.flagId] : [])),
      },
      limit: open.length,
    });
    const claims = still.filter((candidate) => !candidate.refund).slice(0, batchSize);
    const refunds = still.filter((candidate) => candidate.refund).slice(0, batchSize);
    const relays: EscrowRelayRow[] = [];
    for (const [kind, batch] of [
      ['claim', claims],
      ['refund', refunds],
    ] as const) {
      if (batch.length === 0) continue;
      const action = await submitOperatorAction(
        { ...deps.sender, db: tx },
        {
          key: `escrow-relay:${deps.chainId}:${deps.escrow.toLowerCase()}:${owner}:${randomUUID()}`,
          to: deps.escrow,
          data: kind === 'claim' ? claimManyData(batch) : refundManyData(batch),
          gasCap: RELAY_BASE_GAS + RELAY_GAS_PER_STAKE * BigInt(batch.length),
          signAtCap: true,
        },
      );
      relays.push(
        await insertRelay(tx, {
          kind,
          owner,
          operatorTxId: action.id,
          stakes: batch.map((candidate) => ({ stakeId: candidate.stakeId as bigint, ref: candidate.ref })),
        }),
      );
    }
    return relays;
  });
}

async function hasCode(chain: PublicClient, owner: string): Promise<boolean> {
  const code = await chain.getCode({ address: getAddress(owner) });
  return code !== undefined && code !== '0x';
}

/** A row that cannot be relayed as it stands (the server's records disagree with its list): logged, skipped. */
function candidateProblem(candidate: Candidate): string | null {
  const what =
    'oracleBetId' in candidate.ref ? 'round bet' : 'betId' in candidate.ref ? 'market bet' : 'flag bond';
  if (candidate.stakeId === null || candidate.payoutAmount === null)
    return `${what} without a stake or a return`;
  if (candidate.refund) {
    return candidate.payoutAmount === candidate.amount
      ? null
      : `a refunded ${what} whose return is not its stake: not relayed`;
  }
  if (candidate.leafPayout === null || candidate.proof === null) {
    return `a paid ${what} is not in its market’s payout list: not relayed`;
  }
  return candidate.leafPayout === candidate.payoutAmount
    ? null
    : `a paid ${what}’s return differs from its leaf in the payout list: not relayed`;
}

function stakeRef(candidate: Candidate) {
  return {
    stakeId: candidate.stakeId as bigint,
    owner: getAddress(candidate.owner),
    market: candidate.marketKey as Hex,
    amount: candidate.amount,
  };
}

function claimManyData(batch: readonly Candidate[]): Hex {
  return encodeFunctionData({
    abi: predictionEscrowAbi,
    functionName: 'claimMany',
    args: [
      batch.map((candidate) => ({
        stake: stakeRef(candidate),
        payout: candidate.leafPayout as bigint,
        proof: (candidate.proof ?? []) as Hex[],
      })),
    ],
  });
}

function refundManyData(batch: readonly Candidate[]): Hex {
  return encodeFunctionData({
    abi: predictionEscrowAbi,
    functionName: 'refundMany',
    args: [batch.map(stakeRef)],
  });
}

/**
 * A stake the contract has spent already (the wallet's own claim, or a relay whose recording was
 * missed): its final `Claimed` or `Refunded` (and `Credited`) event is recorded, and the bet is paid.
 * Not found final yet: left as it is, for a later claim.
 */
async function recordSpentStake(deps: EscrowClaimsDeps, candidate: Candidate): Promise<void> {
  const stakeId = candidate.stakeId as bigint;
  const toBlock = await readFinalHeight(deps.chain, deps.confirmations);
  if (toBlock === null) return;
  const paid = await findStakePaid(deps.chain, deps.escrow, stakeId, {
    fromBlock: candidate.settledBlock ?? 0n,
    toBlock,
  });
  if (!paid) {
    deps.log?.info({ stakeId: String(stakeId) }, 'escrow stake spent, its payout not final yet: not relayed');
    return;
  }
  await deps.db.transaction((tx) => recordStakesPaid(tx, [paid], null));
  deps.log?.info(
    { stakeId: String(stakeId), txHash: paid.txHash, kind: paid.kind, credited: paid.credited },
    'escrow stake already paid on chain: recorded',
  );
}

/**
 * Where a relay stands. Its action is moved on first when `advance` (a claim request drives its own
 * relay; the job leaves that to the sender's job). Final: its receipt's events mark the bets paid and
 * the relay done. Failed or skipped: released, its bets claimable again.
 */
export async function followRelay(
  deps: EscrowClaimsDeps,
  relay: EscrowRelayRow,
  options: { advance: boolean },
): Promise<EscrowRelayState> {
  let action: OperatorTxRow | undefined;
  if (options.advance) {
    try {
      action = await advanceOperatorTx(deps.sender, relay.operatorTxId);
    } catch (error) {
      // A passing fault: the sender's job moves it on; this request answers pending.
      deps.log?.warn({ err: error, relayId: relay.id }, 'escrow relay step failed; the sender retries it');
    }
  }
  action ??= await findOperatorTx(deps.db, relay.operatorTxId);
  if (!action) throw new Error(`operator transaction ${relay.operatorTxId} not found`);
  if (relay.status !== 'open') {
    return {
      relay,
      state: relay.status === 'done' ? 'confirmed' : 'released',
      txHash: action.txHash,
      reason: relay.lastError,
    };
  }
  switch (action.status) {
    case 'queued':
    case 'signed':
    case 'sent':
      return { relay, state: 'pending', txHash: action.txHash, reason: null };
    case 'confirmed': {
      const receipt = await deps.chain.getTransactionReceipt({ hash: action.txHash as Hex });
      const paid = stakesPaidIn(deps.escrow, receipt.logs);
      const ended = await deps.db.transaction(async (tx) => {
        await recordStakesPaid(tx, paid, relay.id);
        return endRelay(tx, relay.id, 'done', null);
      });
      deps.log?.info(
        {
          relayId: relay.id,
          kind: relay.kind,
          txHash: action.txHash,
          stakes: paid.length,
          credited: paid.filter((stake) => stake.credited).length,
        },
        'escrow relay final: its stakes are paid',
      );
      return { relay: ended ?? relay, state: 'confirmed', txHash: action.txHash, reason: null };
    }
    case 'failed':
    case 'skipped': {
      const reason = `the ${relay.kind === 'claim' ? 'claimMany' : 'refundMany'} relay ${action.status}: ${action.lastError ?? 'no reason recorded'}`;
      const ended = await endRelay(deps.db, relay.id, 'released', reason);
      deps.log?.warn(
        { relayId: relay.id, operatorTxId: action.id, reason },
        'escrow relay released: its bets stay claimable',
      );
      return { relay: ended ?? relay, state: 'released', txHash: action.txHash, reason };
    }
    default:
      throw new Error(`operator transaction ${action.id} has an unknown status ${action.status}`);
  }
}

/** The job: relays a request stopped waiting for are recorded once final (or released), each on its own. */
export function createEscrowRelaysJob(deps: EscrowClaimsDeps, intervalMs = 2_000): Job {
  return {
    name: 'escrow-relays',
    intervalMs,
    async run() {
      for (const relay of await listAllOpenRelays(deps.db, 100)) {
        try {
          await followRelay(deps, relay, { advance: false });
        } catch (error) {
          deps.log?.error(
            { err: error, relayId: relay.id },
            `escrow relay step failed: ${describeError(error)}`,
          );
        }
      }
    },
  };
}
