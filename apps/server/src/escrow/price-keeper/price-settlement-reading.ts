import { PRICE_OUTCOME, type PriceOutcome } from '@pm/core/price-outcome';
import { marketEscrowAbi } from '@pm/escrow/market-escrow.gen';
import type { LogPosition } from '@pm/escrow/market-escrow-events';
import { type Address, getAbiItem, type Hex, type PublicClient, parseEventLogs } from 'viem';

// docs/decisions/034 "Settlement": the database takes a price kind's outcome from the chain's own
// `PriceSettled` event, read from a final block: the outcome, the readings with their feed round ids,
// and what the winners share (with core's priceStakeReturnWei, every stake's return). A settled price
// is never the server's belief.

/** A feed reading the contract proved: the round in force at an instant, and its answer (8 decimals). */
export type PriceReading = { roundId: bigint; price: bigint };

/** A price kind's settlement as `PriceSettled` recorded it. */
export type PriceSettlement = {
  market: Hex;
  /** A winning side (1 YES / UP, 2 NO / DOWN), or why every stake is refunded. */
  outcome: PriceOutcome;
  /** A round's reading at its lock; null for a price market, which has only its deadline's. */
  lock: PriceReading | null;
  /** A round's reading at its close, a price market's at its deadline. */
  close: PriceReading;
  /** What the winners share (the pool less the fee); 0 when every stake is refunded. */
  payoutTotal: bigint;
  fee: bigint;
} & LogPosition;

export type PriceSettlementQuery = {
  escrow: Address;
  marketKey: Hex;
  fromBlock: bigint;
  /** The final height (chain/finality.ts readFinalHeight): a settlement above it is not read yet. */
  toBlock: bigint;
};

const PRICE_SETTLED = getAbiItem({ abi: marketEscrowAbi, name: 'PriceSettled' });
const OUTCOMES: readonly number[] = Object.values(PRICE_OUTCOME);

/**
 * The market's `PriceSettled` between `fromBlock` and `toBlock` (both included), null while it has
 * none there. A price kind settles once (it leaves Open for good), so a second event, or an outcome
 * the contract has no code for, is this reader reading the wrong contract: it throws.
 */
export async function readPriceSettlement(
  client: PublicClient,
  query: PriceSettlementQuery,
): Promise<PriceSettlement | null> {
  if (query.fromBlock > query.toBlock) return null;
  const logs = await client.getLogs({
    address: query.escrow,
    event: PRICE_SETTLED,
    args: { market: query.marketKey },
    fromBlock: query.fromBlock,
    toBlock: query.toBlock,
  });
  const events = parseEventLogs({
    abi: marketEscrowAbi,
    eventName: 'PriceSettled',
    logs: logs.filter((log) => !log.removed),
    strict: true,
  });
  if (events.length > 1) {
    throw new Error(`market ${query.marketKey} has ${events.length} PriceSettled events at ${query.escrow}`);
  }
  const [event] = events;
  if (!event) return null;
  const { market, outcome, lockRoundId, lockPrice, closeRoundId, closePrice, payoutTotal, fee } = event.args;
  if (!isPriceOutcome(outcome)) {
    throw new Error(`market ${market}'s PriceSettled has outcome ${outcome}, which MarketEscrow never gives`);
  }
  return {
    market,
    outcome,
    // A price market's event carries zeros for the lock it does not have; a round's lock id is never 0.
    lock: lockRoundId === 0n ? null : { roundId: lockRoundId, price: lockPrice },
    close: { roundId: closeRoundId, price: closePrice },
    payoutTotal,
    fee,
    blockNumber: event.blockNumber,
    logIndex: event.logIndex,
    transactionHash: event.transactionHash,
  };
}

function isPriceOutcome(outcome: number): outcome is PriceOutcome {
  return OUTCOMES.includes(outcome);
}
