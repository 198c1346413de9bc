import {
  type AbiEvent,
  type Address,
  type ContractEventArgsFromTopics,
  type ContractEventName,
  type Hash,
  type Hex,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { predictionEscrowAbi } from './prediction-escrow.gen.ts';

// The contract's events about one market, typed from the generated ABI: one reader for the settlement
// verifier, and for the server's readers and the ops commands when they move onto the escrow.

type EscrowAbi = typeof predictionEscrowAbi;

/** Where a log sits on chain: events of a market are returned in this order. */
export type LogPosition = { blockNumber: bigint; logIndex: number; transactionHash: Hash };

export type EscrowEvent<N extends ContractEventName<EscrowAbi>> = ContractEventArgsFromTopics<EscrowAbi, N> &
  LogPosition;

export type MarketEvents = {
  deposits: EscrowEvent<'Deposited'>[];
  settlements: EscrowEvent<'Settled'>[];
  voids: EscrowEvent<'Voided'>[];
  vetoes: EscrowEvent<'Vetoed'>[];
  /** Deposits that sent a pending settlement back (flag bonds), each after its `Deposited`. */
  disputes: EscrowEvent<'Disputed'>[];
  claims: EscrowEvent<'Claimed'>[];
  refunds: EscrowEvent<'Refunded'>[];
  /** Payouts and refunds of this market's stakes whose push failed and became the owner's credit. */
  credits: EscrowEvent<'Credited'>[];
};

export type MarketEventsQuery = {
  escrow: Address;
  marketKey: Hex;
  fromBlock: bigint;
  toBlock: bigint;
  /**
   * Most blocks per `eth_getLogs` request (public RPCs cap the range); unset, one request per event.
   * viem halves a range the RPC refuses and asks again.
   */
  maxBlockRange?: bigint;
};

/**
 * Every Deposited, Settled, Voided, Vetoed, Disputed, Claimed, Refunded and Credited event of market `marketKey`
 * from `fromBlock` to `toBlock` (both included, both numbers: every list is read at the same height),
 * each list in chain order. Logs a reorg removed (`removed: true`) are left out.
 */
export async function readMarketEvents(
  client: PublicClient,
  query: MarketEventsQuery,
): Promise<MarketEvents> {
  if (query.fromBlock > query.toBlock) {
    throw new RangeError(`fromBlock ${query.fromBlock} is after toBlock ${query.toBlock}`);
  }
  const market = query.marketKey;
  const [deposits, settlements, voids, vetoes, disputes, claims, refunds, allCredits] = await Promise.all([
    eventsOf(client, query, 'Deposited', { market }),
    eventsOf(client, query, 'Settled', { market }),
    eventsOf(client, query, 'Voided', { market }),
    eventsOf(client, query, 'Vetoed', { market }),
    eventsOf(client, query, 'Disputed', { market }),
    eventsOf(client, query, 'Claimed', { market }),
    eventsOf(client, query, 'Refunded', { market }),
    // A credit names its owner and stake, not the market: all of them (failed pushes are rare), kept
    // when the stake is one this market paid or refunded.
    eventsOf(client, query, 'Credited', undefined),
  ]);
  const paidHere = new Set([...claims, ...refunds].map((event) => event.stakeId));
  const credits = allCredits.filter((credit) => paidHere.has(credit.stakeId));
  return { deposits, settlements, voids, vetoes, disputes, claims, refunds, credits };
}

async function eventsOf<N extends ContractEventName<EscrowAbi>>(
  client: PublicClient,
  query: MarketEventsQuery,
  eventName: N,
  args: { market: Hex } | undefined,
): Promise<EscrowEvent<N>[]> {
  // One event per request, so the RPC filters on the indexed market topic; parseEventLogs types it.
  const event = predictionEscrowAbi.find(
    (item): item is Extract<EscrowAbi[number], { type: 'event' }> =>
      item.type === 'event' && item.name === eventName,
  ) as AbiEvent;
  const range =
    query.maxBlockRange === undefined
      ? { fromBlock: query.fromBlock, toBlock: query.toBlock }
      : { fromBlock: query.fromBlock, toBlock: query.toBlock, blockRange: query.maxBlockRange };
  const logs = await client.getLogs({ address: query.escrow, event, args, ...range });
  const current = logs.filter((log) => !log.removed);
  return parseEventLogs({ abi: predictionEscrowAbi, eventName, logs: current, strict: true })
    .map(
      (log) =>
        ({
          ...log.args,
          blockNumber: log.blockNumber,
          logIndex: log.logIndex,
          transactionHash: log.transactionHash,
        }) as EscrowEvent<N>,
    )
    .sort(byPosition);
}

/** Chain order: by block, then by position in the block. */
export function byPosition(a: LogPosition, b: LogPosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}
