import {
  type AbiEvent,
  type Address,
  type ContractEventArgsFromTopics,
  type Hash,
  type Hex,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { marketEscrowAbi } from './market-escrow.gen.ts';

// Everything MarketEscrow said about one market, typed from the generated ABI and in chain order: one
// reader for vault:verify, the consistency job and a guardian's watcher (docs/decisions/034).

type MarketEscrowAbi = typeof marketEscrowAbi;

/** The events that name a market by its indexed `market` topic. */
const MARKET_EVENTS = [
  'RoundOpened',
  'PriceMarketCreated',
  'JudgedMarketCreated',
  'Deposited',
  'PriceSettled',
  'Settled',
  'Voided',
  'Disputed',
  'SettlementWithdrawn',
  'Vetoed',
  'Escaped',
  'Claimed',
  'Refunded',
  'FeeCollected',
] as const;

/** A market's event name: those above, and `Credited` (a failed push of one of its stakes). */
export type MarketEscrowEventName = (typeof MARKET_EVENTS)[number] | 'Credited';

/** Where a log sits on chain. */
export type LogPosition = { blockNumber: bigint; logIndex: number; transactionHash: Hash };

/** One event, its name telling its arguments apart. */
export type MarketEscrowEvent = {
  [N in MarketEscrowEventName]: {
    eventName: N;
    args: ContractEventArgsFromTopics<MarketEscrowAbi, N>;
  } & LogPosition;
}[MarketEscrowEventName];

export type MarketEscrowEventsQuery = {
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
 * Every event of market `marketKey` from `fromBlock` to `toBlock` (both included: every event is read
 * at the same height), in chain order: its creation (RoundOpened, PriceMarketCreated or
 * JudgedMarketCreated), Deposited, PriceSettled, Settled, Voided, Disputed, SettlementWithdrawn, Vetoed,
 * Escaped, Claimed, Refunded, FeeCollected, and the Credited of its own stakes' failed pushes. Logs a
 * reorg removed are left out.
 */
export async function readMarketEscrowEvents(
  client: PublicClient,
  query: MarketEscrowEventsQuery,
): Promise<MarketEscrowEvent[]> {
  if (query.fromBlock > query.toBlock) {
    throw new RangeError(`fromBlock ${query.fromBlock} is after toBlock ${query.toBlock}`);
  }
  const [marketEvents, allCredits] = await Promise.all([
    Promise.all(MARKET_EVENTS.map((name) => eventsOf(client, query, name, { market: query.marketKey }))),
    // A credit names its owner and stake, not the market: all of them (failed pushes are rare), kept when
    // the stake is one this market paid or refunded.
    eventsOf(client, query, 'Credited', undefined),
  ]);
  const events = marketEvents.flat();
  const paidHere = new Set(
    events.flatMap((event) =>
      event.eventName === 'Claimed' || event.eventName === 'Refunded' ? [event.args.stakeId] : [],
    ),
  );
  const credits = allCredits.filter(
    (event) => event.eventName === 'Credited' && paidHere.has(event.args.stakeId),
  );
  return [...events, ...credits].sort(byPosition);
}

async function eventsOf(
  client: PublicClient,
  query: MarketEscrowEventsQuery,
  eventName: MarketEscrowEventName,
  args: { market: Hex } | undefined,
): Promise<MarketEscrowEvent[]> {
  // One event per request, so the node filters on the indexed market topic; parseEventLogs types it.
  const event = marketEscrowAbi.find(
    (item): item is Extract<MarketEscrowAbi[number], { type: 'event' }> =>
      item.type === 'event' && item.name === eventName,
  );
  if (!event) throw new Error(`MarketEscrow has no event ${eventName}`);
  const range =
    query.maxBlockRange === undefined
      ? { fromBlock: query.fromBlock, toBlock: query.toBlock }
      : { fromBlock: query.fromBlock, toBlock: query.toBlock, blockRange: query.maxBlockRange };
  const abiEvent: AbiEvent = event;
  const logs = await client.getLogs({ address: query.escrow, event: abiEvent, args, ...range });
  const current = logs.filter((log) => !log.removed);
  return parseEventLogs({ abi: marketEscrowAbi, eventName, logs: current, strict: true }).map(
    (log) =>
      ({
        eventName: log.eventName,
        args: log.args,
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        transactionHash: log.transactionHash,
      }) as MarketEscrowEvent,
  );
}

/** Chain order: by block, then by position in the block. */
export function byPosition(a: LogPosition, b: LogPosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}
