import { type Address, getAddress, type Hash, type Hex, type PublicClient } from 'viem';
import { readMarketEscrowEvents } from '../market-escrow-events.ts';
import { buildPayoutTree, type Payout } from '../payout-tree.ts';
import { judgedSettlementInForce } from './judged-settlement-in-force.ts';
import { marketOutcomeName } from './market-outcome-name.ts';
import { bnb, payoutDifferences } from './payout-differences.ts';
import { type RecomputedJudgedPayouts, recomputeJudgedPayouts } from './recompute-judged-payouts.ts';

// A judged market's settlement on MarketEscrow checked against the payout list its chain events, its
// verdict and the fee rule give (recomputeJudgedPayouts), trusting neither the server nor its list:
// what a guardian's watcher runs on every `Settled` within the payout delay, vetoing one that differs
// or cannot be recomputed, and what `vault:verify` runs to check who gets paid (docs/decisions/034).
// The chain holds the list's root, not its leaves: from the chain alone the check compares the root,
// the total and the fee, and each claim paid (a claim proves one leaf); given the list the operator
// published, it names every stake that list pays otherwise than the rules.

export type VerifyJudgedOptions = {
  /** The market's fee in basis points of its losing pool (the server's MARKET_FEE_BPS, in /api/config). */
  feeBps: number;
  /** First block to read (default 0): it must be at or before the market's creation. */
  fromBlock?: bigint;
  /** Last block to read (default: the latest, read once, so every check sees the same chain). */
  toBlock?: bigint;
  /** Most blocks per eth_getLogs request, for RPCs that cap the range. */
  maxBlockRange?: bigint;
  /** The list the operator published with the settlement: with it, each stake it pays wrongly is named. */
  publishedPayouts?: readonly Payout[];
};

/** The settlement the check read: its `Settled` event. */
export type PostedJudgedSettlement = {
  outcome: number;
  verdictHash: Hex;
  payoutRoot: Hex;
  payoutTotal: bigint;
  fee: bigint;
  claimableAt: bigint;
  blockNumber: bigint;
  transactionHash: Hash;
  /** pending: still in review at the block read (the guardian may veto it); claimable: payouts are open. */
  standing: 'pending' | 'claimable';
};

export type JudgedSettlementCheck = {
  /** agrees: root, total and fee are the rules'; differs: see `sentences`; none: nothing to recompute. */
  status: 'agrees' | 'differs' | 'none';
  /** Every difference (differs), or why there is nothing to recompute (none); empty when it agrees. */
  sentences: string[];
  posted: PostedJudgedSettlement | null;
  /** The rules' list and its root (null: it pays nobody). */
  expected: (RecomputedJudgedPayouts & { root: Hex | null }) | null;
  read: {
    escrow: Address;
    marketKey: Hex;
    feeBps: number;
    fromBlock: bigint;
    toBlock: bigint;
    /** The chain time of `toBlock`. */
    atS: bigint;
    events: number;
    /** Deposits and refunds before the settlement, disputes whose bonds it pays or keeps, its claims. */
    deposits: number;
    refunds: number;
    disputes: number;
    claims: number;
  };
};

/**
 * Recomputes the payout list of market `marketKey`'s settlement in force (its latest `Settled`,
 * pending or claimable) from its events and reports whether the settlement posted that list. A
 * market with nothing to recompute (none, a price kind, unsettled, refunding, its settlement taken
 * back) says so; an RPC failure throws (it is no verdict).
 */
export async function verifyJudgedSettlement(
  client: PublicClient,
  escrow: Address,
  marketKey: Hex,
  options: VerifyJudgedOptions,
): Promise<JudgedSettlementCheck> {
  const toBlock = options.toBlock ?? (await client.getBlockNumber({ cacheTime: 0 }));
  const fromBlock = options.fromBlock ?? 0n;
  const [events, block] = await Promise.all([
    readMarketEscrowEvents(client, {
      escrow,
      marketKey,
      fromBlock,
      toBlock,
      ...(options.maxBlockRange === undefined ? {} : { maxBlockRange: options.maxBlockRange }),
    }),
    client.getBlock({ blockNumber: toBlock }),
  ]);
  const record = judgedSettlementInForce(events, block.timestamp);
  const read: JudgedSettlementCheck['read'] = {
    escrow: getAddress(escrow),
    marketKey,
    feeBps: options.feeBps,
    fromBlock,
    toBlock,
    atS: block.timestamp,
    events: events.length,
    deposits: 0,
    refunds: 0,
    disputes: 0,
    claims: 0,
  };
  if (!record.inForce)
    return { status: 'none', sentences: [record.reason], posted: null, expected: null, read };

  const { settled } = record;
  const posted: PostedJudgedSettlement = {
    outcome: settled.args.outcome,
    verdictHash: settled.args.verdictHash,
    payoutRoot: settled.args.payoutRoot,
    payoutTotal: settled.args.payoutTotal,
    fee: settled.args.fee,
    claimableAt: settled.args.claimableAt,
    blockNumber: settled.blockNumber,
    transactionHash: settled.transactionHash,
    standing: record.standing,
  };
  read.deposits = record.stakes.length;
  read.refunds = record.refunded.length;
  read.disputes = record.contested.length;
  read.claims = record.claims.length;
  const differs = (sentences: string[]): JudgedSettlementCheck => ({
    status: 'differs',
    sentences,
    posted,
    expected: null,
    read,
  });

  // What the rules cannot decide is a difference too: a watcher vetoes what it cannot recompute.
  if (marketOutcomeName(posted.outcome) === null) {
    return differs([
      `The settlement posts outcome ${posted.outcome}, which is no market outcome (YES 1, NO 2, VOID 4): no rule pays by it.`,
    ]);
  }
  const contestedOutcomes = [...new Set(record.contested.map((dispute) => dispute.outcome))];
  const [disputedOutcome] = contestedOutcomes;
  if (contestedOutcomes.length > 1) {
    const each = record.contested
      .map(
        (dispute) =>
          `bond ${dispute.bondStakeId} sent back outcome ${dispute.outcome} at block ${dispute.disputedAtBlock}`,
      )
      .join(', ');
    return differs([
      `The market's bonds contest settlements of different outcomes (${each}): the rules give every bond of a market one fate, so this list cannot be recomputed.`,
    ]);
  }
  if (disputedOutcome !== undefined && marketOutcomeName(disputedOutcome) === null) {
    return differs([
      `The settlement the disputes sent back posted outcome ${disputedOutcome}, which is no market outcome: the bonds' fate cannot be decided.`,
    ]);
  }

  const recomputed = recomputeJudgedPayouts({
    stakes: record.stakes,
    refunded: record.refunded,
    outcome: posted.outcome,
    disputedOutcome: disputedOutcome ?? null,
    feeBps: options.feeBps,
  });
  const root = recomputed.payouts.length === 0 ? null : buildPayoutTree(recomputed.payouts).root;
  const expected = { ...recomputed, root };
  const sentences: string[] = [];

  if (posted.payoutTotal + posted.fee !== recomputed.pool) {
    sentences.push(
      `The settlement's payoutTotal and fee make ${bnb(posted.payoutTotal + posted.fee)}, but the stakes read make a pool of ${bnb(recomputed.pool)}: some deposit or refund of the market is not in the blocks read.`,
    );
  }
  // An empty pool pays nobody whatever the root says: every claim would exceed its total of 0.
  if (root !== null && posted.payoutRoot !== root) {
    sentences.push(
      `The settlement's payout root ${posted.payoutRoot} is not the rules' root ${root}: its list pays some stake otherwise than the rules.`,
    );
  }
  if (posted.payoutTotal !== recomputed.payoutTotal) {
    sentences.push(
      `The settlement pays out ${bnb(posted.payoutTotal)} in all, the rules ${bnb(recomputed.payoutTotal)}: ${gap(posted.payoutTotal, recomputed.payoutTotal)}.`,
    );
  }
  if (posted.fee !== recomputed.fee) {
    sentences.push(
      `The settlement keeps a fee of ${bnb(posted.fee)}, the rules ${bnb(recomputed.fee)} (the fee ${bnb(recomputed.ruleFee)} and rounding dust ${bnb(recomputed.dust)}): ${gap(posted.fee, recomputed.fee)}.`,
    );
  }
  if (options.publishedPayouts !== undefined) {
    sentences.push(...publishedListDifferences(expected, posted, options.publishedPayouts, record.refunded));
  }
  sentences.push(
    ...payoutDifferences(expected, {
      payouts: record.claims,
      complete: false,
      verb: 'was claimed for',
      refunded: record.refunded,
    }),
  );
  return { status: sentences.length === 0 ? 'agrees' : 'differs', sentences, posted, expected, read };
}

/** A published list names stakes only when it is the list the settlement committed to. */
function publishedListDifferences(
  expected: RecomputedJudgedPayouts,
  posted: PostedJudgedSettlement,
  payouts: readonly Payout[],
  refunded: readonly bigint[],
): string[] {
  let root: Hex;
  try {
    root = buildPayoutTree(payouts).root;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [`The published list is no payout list (${why}): no stake is named from it.`];
  }
  if (root !== posted.payoutRoot) {
    return [
      `The published list's root ${root} is not the settlement's ${posted.payoutRoot}: it is not the list posted, so no stake is named from it.`,
    ];
  }
  return payoutDifferences(expected, { payouts, complete: true, verb: 'is paid', refunded });
}

function gap(posted: bigint, rules: bigint): string {
  return posted > rules ? `${bnb(posted - rules)} too much` : `${bnb(rules - posted)} too little`;
}
