import { type FeedRound, findCoveringRound } from '@pm/core/feed-rounds';
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type PublicClient,
  parseAbi,
} from 'viem';
import type { Clock } from '../chain/clock.ts';
import { type PriceAtInstant, type PriceFeed, PriceFeedError, type PriceReading } from './price-feed.ts';

/** The part of Chainlink's AggregatorV3Interface we read. */
const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function getRoundData(uint80 roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

type RoundData = readonly [bigint, bigint, bigint, bigint, bigint];

/**
 * The contract answered, and its answer is "no": a revert (a round id without data: "No data
 * present"), or no code at the address. Anything else (HTTP, timeout, rate limit) is the RPC failing.
 */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError,
    ) !== null
  );
}

const PRICE_DECIMALS = 8;

/**
 * One coin's Chainlink USD aggregator read over RPC (docs/architecture.md "Oracle rounds"; every coin
 * of a price market has its own). A reading counts only if
 * - the aggregator answers with 8 decimals (every USD proxy we use does; one that does not is the
 *   wrong contract, so the coin is unavailable rather than mis-scaled — decision 020),
 * - answer > 0,
 * - updatedAt ≥ now − maxAgeS (PancakeSwap's check is inverted and accepts any old price:
 *   pancake-smart-contracts#55),
 * - its round id is not older than the last one accepted. Equal is fine: Chainlink does not promise a
 *   new round id per read, and requiring one froze PancakeSwap's rounds (pancake-smart-contracts#56).
 */
export function createChainlinkFeed(deps: {
  client: PublicClient;
  address: `0x${string}`;
  maxAgeS: number;
  clock: Clock;
}): PriceFeed & { lastRoundId(): bigint | null } {
  let decimals: number | undefined;
  let lastRoundId: bigint | null = null;

  const readDecimals = async () => {
    decimals ??= await deps.client.readContract({
      address: deps.address,
      abi: aggregatorV3Abi,
      functionName: 'decimals',
    });
    return decimals;
  };

  return {
    source: 'chainlink',
    lastRoundId: () => lastRoundId,
    async read(): Promise<PriceReading> {
      let feedDecimals: number;
      let data: RoundData;
      try {
        feedDecimals = await readDecimals();
        data = await deps.client.readContract({
          address: deps.address,
          abi: aggregatorV3Abi,
          functionName: 'latestRoundData',
        });
      } catch (error) {
        throw new PriceFeedError('UNAVAILABLE', 'The Chainlink aggregator could not be read', {
          cause: error,
        });
      }
      if (feedDecimals !== PRICE_DECIMALS) {
        throw new PriceFeedError(
          'BAD_RESPONSE',
          `The aggregator at ${deps.address} answers with ${feedDecimals} decimals, not ${PRICE_DECIMALS}`,
        );
      }
      const [roundId, answer, , updatedAtS] = data;
      if (answer <= 0n) throw new PriceFeedError('NON_POSITIVE', `Chainlink answered ${answer}`);
      const updatedAt = new Date(Number(updatedAtS) * 1000);
      const oldestAllowedMs = deps.clock.now().getTime() - deps.maxAgeS * 1000;
      if (updatedAt.getTime() < oldestAllowedMs) {
        throw new PriceFeedError(
          'STALE',
          `Chainlink round ${roundId} was updated at ${updatedAt.toISOString()}`,
          { updatedAt },
        );
      }
      if (lastRoundId !== null && roundId < lastRoundId) {
        throw new PriceFeedError(
          'ROUND_REGRESSED',
          `Chainlink round ${roundId} is older than ${lastRoundId}`,
        );
      }
      lastRoundId = roundId;
      return {
        price: answer,
        updatedAt,
        roundId: roundId.toString(),
        source: 'chainlink',
        stale: false,
      };
    },

    /**
     * Walks the aggregator's history (`getRoundData`) back from `latestRoundData` to the round that
     * covers `instant` (@pm/core/feed-rounds: within the latest round's phase, a bounded number of
     * reads). A failed RPC call rejects (UNAVAILABLE, retried by the caller); a revert is an answer.
     */
    async roundAt(instant: Date, maxAgeS: number): Promise<PriceAtInstant> {
      const call = async <T>(read: () => Promise<T>): Promise<T | null> => {
        try {
          return await read();
        } catch (error) {
          if (isRefusal(error)) return null;
          throw new PriceFeedError('UNAVAILABLE', 'The Chainlink aggregator could not be read', {
            cause: error,
          });
        }
      };
      const toRound = ([roundId, answer, , updatedAtS]: RoundData): FeedRound => ({
        roundId,
        answer,
        updatedAtMs: Number(updatedAtS) * 1000,
      });
      const feedDecimals = await call(readDecimals);
      if (feedDecimals === null) return { found: false, reason: `no aggregator at ${deps.address}` };
      if (feedDecimals !== PRICE_DECIMALS) {
        return { found: false, reason: `the aggregator answers with ${feedDecimals} decimals` };
      }
      const latest = await call(() =>
        deps.client.readContract({
          address: deps.address,
          abi: aggregatorV3Abi,
          functionName: 'latestRoundData',
        }),
      );
      if (latest === null) return { found: false, reason: 'the aggregator has no round' };
      const result = await findCoveringRound({
        latest: toRound(latest),
        instantMs: instant.getTime(),
        maxAgeMs: maxAgeS * 1000,
        readRound: async (roundId) => {
          const data = await call(() =>
            deps.client.readContract({
              address: deps.address,
              abi: aggregatorV3Abi,
              functionName: 'getRoundData',
              args: [roundId],
            }),
          );
          return data && toRound(data);
        },
      });
      if (!result.found) return { found: false, reason: result.reason };
      return {
        found: true,
        reading: {
          price: result.round.answer,
          updatedAt: new Date(result.round.updatedAtMs),
          roundId: result.round.roundId.toString(),
          source: 'chainlink',
          stale: false,
        },
      };
    },
  };
}
