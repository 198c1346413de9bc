import { type FeedRound, findRoundInForce, PHASE_OFFSET, type RoundInForce } from '@pm/core/feed-rounds';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type Hex,
  type PublicClient,
} from 'viem';
import { devFeedProxyAbi } from './dev-feeds.gen.ts';
import { marketEscrowAbi } from './market-escrow.gen.ts';
import { MARKET_KIND } from './market-escrow-keys.ts';

// The call that settles a round or a price market of MarketEscrow (docs/decisions/031): the feed's
// round ids in force at its instants, found off chain by core's search (findRoundInForce, a bounded
// walk of `getRoundData`) against any node, and proved by the contract. The server's keeper, the
// `settle` example and the web's Settle button all build it here; anyone else can, from public data.

/** The AggregatorV3 reads of a Chainlink proxy with phases (the dev feed proxy's ABI is Chainlink's). */
const proxyAbi = devFeedProxyAbi;

export type PriceSettlementCall =
  | { functionName: 'settleRound'; args: readonly [Hex, bigint, bigint] }
  | { functionName: 'settlePriceMarket'; args: readonly [Hex, bigint] };

/** Why no call can be made now: not a price kind, not open, its instant not past, or no round found. */
export type PriceSettlementWait =
  | { wait: 'not_a_price_kind' | 'not_open' | 'not_closed' }
  | { wait: 'no_round'; reason: Extract<RoundInForce, { found: false }>['reason'] };

/** `State.Open` of the contract's markets. */
const OPEN = 1;

export async function priceSettlementCall(
  client: PublicClient,
  escrow: Address,
  market: Hex,
): Promise<PriceSettlementCall | PriceSettlementWait> {
  const [, closesAt, , kind, state, , coin] = await client.readContract({
    address: escrow,
    abi: marketEscrowAbi,
    functionName: 'markets',
    args: [market],
  });
  if (kind !== MARKET_KIND.round && kind !== MARKET_KIND.priceMarket) return { wait: 'not_a_price_kind' };
  if (state !== OPEN) return { wait: 'not_open' };
  const [, decidesAt] = await client.readContract({
    address: escrow,
    abi: marketEscrowAbi,
    functionName: 'priceTerms',
    args: [market],
  });
  const feed = await client.readContract({
    address: escrow,
    abi: marketEscrowAbi,
    functionName: 'feeds',
    args: [coin],
  });
  // The contract proves only an instant strictly before its block: compare with the latest block's time.
  const { timestamp } = await client.getBlock();
  if (BigInt(decidesAt) >= timestamp) return { wait: 'not_closed' };

  const close = await roundInForceAt(client, feed, decidesAt);
  if (!close.found) return { wait: 'no_round', reason: close.reason };
  if (kind === MARKET_KIND.priceMarket) {
    return { functionName: 'settlePriceMarket', args: [market, close.round.roundId] };
  }
  const lock = await roundInForceAt(client, feed, closesAt);
  if (!lock.found) return { wait: 'no_round', reason: lock.reason };
  return { functionName: 'settleRound', args: [market, lock.round.roundId, close.round.roundId] };
}

/**
 * The round of `feed` in force at `instant` (unix seconds): searched in the current phase, then, for an
 * instant before that phase's first round, in the phase before, as RoundInForce accepts (decision 029).
 */
export async function roundInForceAt(
  client: PublicClient,
  feed: Address,
  instant: number,
): Promise<RoundInForce> {
  const readRound = async (roundId: bigint): Promise<FeedRound | null> => {
    try {
      const [, answer, , updatedAt] = await client.readContract({
        address: feed,
        abi: proxyAbi,
        functionName: 'getRoundData',
        args: [roundId],
      });
      return updatedAt === 0n ? null : { roundId, answer, updatedAtMs: Number(updatedAt) * 1000 };
    } catch (error) {
      // A round without data reverts ("No data present"); anything else is the node failing: retry.
      if (isRevert(error)) return null;
      throw error;
    }
  };
  const [latestId, answer, , updatedAt] = await client.readContract({
    address: feed,
    abi: proxyAbi,
    functionName: 'latestRoundData',
  });
  const instantMs = instant * 1000;
  const current = await findRoundInForce({
    latest: { roundId: latestId, answer, updatedAtMs: Number(updatedAt) * 1000 },
    instantMs,
    readRound,
  });
  const phase = Number(latestId >> PHASE_OFFSET);
  if (current.found || current.reason !== 'before_history' || phase <= 1) return current;
  // The phase before: its aggregator's own latest round, numbered through the proxy.
  const previous = await client.readContract({
    address: feed,
    abi: proxyAbi,
    functionName: 'phaseAggregators',
    args: [phase - 1],
  });
  const [previousLatest] = await client.readContract({
    address: previous,
    abi: proxyAbi,
    functionName: 'latestRoundData',
  });
  const previousLatestId =
    (BigInt(phase - 1) << PHASE_OFFSET) | (previousLatest & ((1n << PHASE_OFFSET) - 1n));
  const latestOfPrevious = await readRound(previousLatestId);
  if (!latestOfPrevious) return current;
  return findRoundInForce({ latest: latestOfPrevious, instantMs, readRound });
}

/** The contract answered "no" (a revert, or no code), not the node failing. */
function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError,
    ) !== null
  );
}
