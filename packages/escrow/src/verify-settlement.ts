import { type Address, getAddress, type Hex, type PublicClient } from 'viem';
import { byPosition, type LogPosition, readMarketEvents } from './escrow-events.ts';
import { type PayoutList, payoutListProblems } from './payout-list.ts';

// docs/decisions/026-app-on-the-escrow.md "Payout lists": anyone holding a published payout list and
// an RPC checks it against the escrow's own events, trusting neither the server nor the list.
// scripts/verify-settlement.ts prints this report, and so does the ops command `vault:verify`
// (apps/server/src/ops/vault-verify-command.ts).

export type SettlementReport = {
  /** True when nothing is wrong. */
  ok: boolean;
  /** Every discrepancy found, each a sentence. */
  discrepancies: string[];
  /** What the check read, for the printout. */
  checked: {
    chainId: number;
    escrow: Address;
    marketKey: Hex;
    fromBlock: bigint;
    toBlock: bigint;
    leaves: number;
    deposits: number;
    /** The block of the market's latest Settled event, if any. */
    settledAtBlock: bigint | null;
    claimableAt: bigint | null;
    claims: number;
    claimed: bigint;
    /** Claims whose push failed: paid as a credit the owner withdraws. */
    credits: number;
  };
};

export type VerifyOptions = {
  /** First block to read (default 0: the whole chain; a deposit precedes its close by 2 days at most). */
  fromBlock?: bigint;
  /** Last block to read (default: the latest, read once, so every check sees the same chain). */
  toBlock?: bigint;
  /** Most blocks per eth_getLogs request, for RPCs that cap the range. */
  maxBlockRange?: bigint;
};

/**
 * Checks a payout list against the escrow at `escrow`: the list holds together (payoutListProblems);
 * it is for this chain and this escrow; the market's latest `Settled` event posted its outcome,
 * verdict hash, root, total and fee, and nothing voided, vetoed or disputed it since; each leaf's stake was
 * deposited into the market by its owner with its amount and is not refunded; payoutTotal + fee is
 * what the market holds (deposits less refunds); and every `Claimed` of the market paid a listed
 * stake its exact payout, in all no more than the total. An RPC failure throws (it is no verdict).
 */
export async function verifySettlement(
  client: PublicClient,
  escrow: Address,
  list: PayoutList,
  options: VerifyOptions = {},
): Promise<SettlementReport> {
  const discrepancies = payoutListProblems(list);
  const chainId = await client.getChainId();
  const toBlock = options.toBlock ?? (await client.getBlockNumber({ cacheTime: 0 }));
  const fromBlock = options.fromBlock ?? 0n;
  const checked: SettlementReport['checked'] = {
    chainId,
    escrow: getAddress(escrow),
    marketKey: list.marketKey,
    fromBlock,
    toBlock,
    leaves: list.leaves.length,
    deposits: 0,
    settledAtBlock: null,
    claimableAt: null,
    claims: 0,
    claimed: 0n,
    credits: 0,
  };
  const report = () => ({ ok: discrepancies.length === 0, discrepancies, checked });

  if (list.chainId !== chainId) {
    discrepancies.push(
      `The list is for chain ${list.chainId}, but the RPC serves chain ${chainId}: the chain was not checked.`,
    );
    return report();
  }
  if (getAddress(list.escrow) !== checked.escrow) {
    discrepancies.push(`The list names escrow ${list.escrow}, but the escrow checked is ${checked.escrow}.`);
  }

  const events = await readMarketEvents(client, {
    escrow,
    marketKey: list.marketKey,
    fromBlock,
    toBlock,
    maxBlockRange: options.maxBlockRange,
  });
  checked.deposits = events.deposits.length;
  checked.claims = events.claims.length;
  checked.credits = events.credits.length;

  // The settlement in force: the latest, unless a void, a veto or a dispute came after it.
  const settled = events.settlements.at(-1);
  if (!settled) {
    discrepancies.push(
      `The escrow has no Settled event for market ${list.marketKey} in blocks ${fromBlock} to ${toBlock}.`,
    );
  } else {
    checked.settledAtBlock = settled.blockNumber;
    checked.claimableAt = settled.claimableAt;
    const at = `The chain's settlement (block ${settled.blockNumber})`;
    if (settled.outcome !== list.outcome) {
      discrepancies.push(`${at} has outcome ${settled.outcome}, the list says ${list.outcome}.`);
    }
    if (settled.verdictHash.toLowerCase() !== list.verdictHash) {
      discrepancies.push(`${at} has verdict hash ${settled.verdictHash}, the list says ${list.verdictHash}.`);
    }
    if (settled.payoutRoot.toLowerCase() !== list.root) {
      discrepancies.push(`${at} has root ${settled.payoutRoot}, the list says ${list.root}.`);
    }
    if (settled.payoutTotal !== list.payoutTotal) {
      discrepancies.push(
        `${at} has a payoutTotal of ${settled.payoutTotal} wei, the list says ${list.payoutTotal} wei.`,
      );
    }
    if (settled.fee !== list.fee) {
      discrepancies.push(`${at} keeps a fee of ${settled.fee} wei, the list says ${list.fee} wei.`);
    }
    const after = (event: LogPosition) => byPosition(event, settled) > 0;
    for (const veto of events.vetoes.filter(after)) {
      discrepancies.push(
        `The guardian vetoed the settlement at block ${veto.blockNumber}: the list pays nothing, every stake is refunded.`,
      );
    }
    for (const voided of events.voids.filter(after)) {
      discrepancies.push(
        `The operator voided the settlement at block ${voided.blockNumber}: the list pays nothing, every stake is refunded.`,
      );
    }
    for (const dispute of events.disputes.filter(after)) {
      discrepancies.push(
        `Stake ${dispute.stakeId} disputed the settlement at block ${dispute.blockNumber}: the list pays nothing until the market is settled again.`,
      );
    }
  }

  // Each leaf pays a stake of this market, as it was deposited and still open at the settlement.
  const deposits = new Map(events.deposits.map((deposit) => [deposit.stakeId, deposit]));
  const refunds = new Map(events.refunds.map((refund) => [refund.stakeId, refund]));
  for (const leaf of list.leaves) {
    const deposit = deposits.get(leaf.stakeId);
    if (!deposit) {
      discrepancies.push(`Stake ${leaf.stakeId} was not deposited into market ${list.marketKey}.`);
      continue;
    }
    if (getAddress(deposit.owner) !== leaf.owner) {
      discrepancies.push(
        `Stake ${leaf.stakeId} was deposited by ${deposit.owner}, the list says ${leaf.owner}.`,
      );
    }
    if (deposit.amount !== leaf.amount) {
      discrepancies.push(
        `Stake ${leaf.stakeId} deposited ${deposit.amount} wei, the list says ${leaf.amount} wei.`,
      );
    }
    const refund = refunds.get(leaf.stakeId);
    if (refund) {
      discrepancies.push(
        `Stake ${leaf.stakeId} was refunded at block ${refund.blockNumber}: the list cannot pay it.`,
      );
    }
  }

  // The whole pool is payouts and fee: deposits less refunds, both before the settlement (a deposit
  // after it is a dispute's bond, reported above).
  const before = (event: LogPosition) => !settled || byPosition(event, settled) < 0;
  const deposited = events.deposits.filter(before).reduce((sum, deposit) => sum + deposit.amount, 0n);
  const refunded = events.refunds.filter(before).reduce((sum, refund) => sum + refund.amount, 0n);
  const pool = deposited - refunded;
  if (pool !== list.payoutTotal + list.fee) {
    discrepancies.push(
      `The market holds ${pool} wei (deposits ${deposited} less refunds ${refunded}), but the list's ` +
        `payoutTotal + fee is ${list.payoutTotal + list.fee} wei.`,
    );
  }

  // What the contract paid: only listed stakes, each its payout to its owner.
  const leaves = new Map(list.leaves.map((leaf) => [leaf.stakeId, leaf]));
  for (const claim of events.claims) {
    checked.claimed += claim.amount;
    const leaf = leaves.get(claim.stakeId);
    if (!leaf) {
      discrepancies.push(
        `Stake ${claim.stakeId} was paid ${claim.amount} wei at block ${claim.blockNumber} but is not in the list.`,
      );
      continue;
    }
    if (claim.amount !== leaf.payout) {
      discrepancies.push(
        `Stake ${claim.stakeId} was paid ${claim.amount} wei at block ${claim.blockNumber}, the list says ${leaf.payout} wei.`,
      );
    }
    if (getAddress(claim.owner) !== leaf.owner) {
      discrepancies.push(
        `Stake ${claim.stakeId} was paid to ${claim.owner}, the list's owner is ${leaf.owner}.`,
      );
    }
  }
  if (checked.claimed > list.payoutTotal) {
    discrepancies.push(
      `Claims paid ${checked.claimed} wei in all, more than the list's payoutTotal of ${list.payoutTotal} wei.`,
    );
  }
  return report();
}

/** The report as lines of text: what was read, then ✔ or every discrepancy. */
export function formatSettlementReport(report: SettlementReport): string {
  const { checked } = report;
  const settled =
    checked.settledAtBlock === null
      ? 'no settlement'
      : `settled at block ${checked.settledAtBlock}, claims open at ${new Date(Number(checked.claimableAt) * 1000).toISOString()}`;
  const lines = [
    `Market ${checked.marketKey} on chain ${checked.chainId}, escrow ${checked.escrow}`,
    `Read blocks ${checked.fromBlock} to ${checked.toBlock}: ${checked.deposits} deposits, ${settled}, ` +
      `${checked.claims} claims paying ${checked.claimed} wei (${checked.credits} as credits); the list has ${checked.leaves} leaves.`,
  ];
  if (report.ok) lines.push('✔ The payout list matches the chain.');
  else {
    const count = report.discrepancies.length;
    lines.push(`✘ ${count} ${count === 1 ? 'discrepancy' : 'discrepancies'}:`);
    for (const discrepancy of report.discrepancies) lines.push(`  - ${discrepancy}`);
  }
  return lines.join('\n');
}
