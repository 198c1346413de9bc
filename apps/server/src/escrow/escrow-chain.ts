import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  type Hex,
  type Log,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';

// What the settlement and claims read from the escrow contract (decision 025): a market's state, a
// stake's slot, and the events of a final receipt.

export const MARKET_STATE = { none: 0, open: 1, settled: 2, refunding: 3 } as const;

export type EscrowMarket = {
  pool: bigint;
  closesAt: number;
  claimableAt: number;
  state: number;
  payoutRoot: Hex;
  payoutTotal: bigint;
  fee: bigint;
};

/** `markets(key)`, at the latest block. */
export async function readEscrowMarket(
  chain: PublicClient,
  escrow: Address,
  key: Hex,
): Promise<EscrowMarket> {
  const [pool, closesAt, claimableAt, state, , , payoutRoot, payoutTotal, , fee] = await chain.readContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'markets',
    args: [key],
  });
  return { pool, closesAt, claimableAt, state, payoutRoot, payoutTotal, fee };
}

/** The contract's `minPayoutDelay`: the delay a round's settlement asks (decision 026). */
export async function readMinPayoutDelay(chain: PublicClient, escrow: Address): Promise<number> {
  return chain.readContract({ address: escrow, abi: predictionEscrowAbi, functionName: 'minPayoutDelay' });
}

/** Whether a stake is still open: the contract zeroes a stake's hash once it is paid or refunded. */
export async function isStakeOpen(chain: PublicClient, escrow: Address, stakeId: bigint): Promise<boolean> {
  const hash = await chain.readContract({
    address: escrow,
    abi: predictionEscrowAbi,
    functionName: 'stakes',
    args: [stakeId],
  });
  return BigInt(hash) !== 0n;
}

/** A stake that left the escrow: claimed (its payout) or refunded, pushed or credited to its owner. */
export type StakePaid = {
  stakeId: bigint;
  market: Hex;
  owner: Address;
  kind: 'claimed' | 'refunded';
  amount: bigint;
  credited: boolean;
  txHash: Hex;
  blockNumber: bigint;
};

/**
 * The stakes a receipt (or logs) paid: each `Claimed` and `Refunded` of the escrow, marked credited
 * when the same transaction's `Credited` names the stake (its push failed: the owner's credit).
 */
export function stakesPaidIn(escrow: Address, logs: readonly Log[]): StakePaid[] {
  const ours = logs.filter((log) => log.address.toLowerCase() === escrow.toLowerCase());
  const events = parseEventLogs({
    abi: predictionEscrowAbi,
    logs: ours,
    eventName: ['Claimed', 'Refunded', 'Credited'],
  });
  const credited = new Set(
    events.flatMap((event) =>
      event.eventName === 'Credited' ? [`${event.transactionHash}:${event.args.stakeId}`] : [],
    ),
  );
  return events.flatMap((event) => {
    if (event.eventName === 'Credited' || event.transactionHash === null || event.blockNumber === null)
      return [];
    return [
      {
        stakeId: event.args.stakeId,
        market: event.args.market,
        owner: event.args.owner,
        kind: event.eventName === 'Claimed' ? 'claimed' : 'refunded',
        amount: event.args.amount,
        credited: credited.has(`${event.transactionHash}:${event.args.stakeId}`),
        txHash: event.transactionHash,
        blockNumber: event.blockNumber,
      } satisfies StakePaid,
    ];
  });
}

/** The settlement a final receipt made: `Settled` (with claimableAt) or `Voided`, of market `key`. */
export function settlementIn(
  escrow: Address,
  key: Hex,
  receipt: TransactionReceipt,
): { kind: 'settled'; claimableAt: bigint; root: Hex } | { kind: 'voided' } | null {
  const ours = receipt.logs.filter((log) => log.address.toLowerCase() === escrow.toLowerCase());
  for (const event of parseEventLogs({
    abi: predictionEscrowAbi,
    logs: ours,
    eventName: ['Settled', 'Voided'],
  })) {
    if (event.args.market.toLowerCase() !== key.toLowerCase()) continue;
    if (event.eventName === 'Settled') {
      return { kind: 'settled', claimableAt: event.args.claimableAt, root: event.args.payoutRoot };
    }
    return { kind: 'voided' };
  }
  return null;
}

/**
 * The events that paid `stakeId` from `fromBlock` to `toBlock` (a stake spent by someone else: the
 * wallet's own claim, another relay): at most one `Claimed` or `Refunded` (a stake is spent once).
 */
export async function findStakePaid(
  chain: PublicClient,
  escrow: Address,
  stakeId: bigint,
  range: { fromBlock: bigint; toBlock: bigint },
): Promise<StakePaid | null> {
  const query = {
    address: escrow,
    abi: predictionEscrowAbi,
    args: { stakeId },
    strict: true,
    ...range,
  } as const;
  const [claimed, refunded, credited] = await Promise.all([
    chain.getContractEvents({ ...query, eventName: 'Claimed' }),
    chain.getContractEvents({ ...query, eventName: 'Refunded' }),
    chain.getContractEvents({ ...query, eventName: 'Credited' }),
  ]);
  const logs = [...claimed, ...refunded, ...credited].filter((log) => !log.removed);
  return stakesPaidIn(escrow, logs).find((paid) => paid.stakeId === stakeId) ?? null;
}
