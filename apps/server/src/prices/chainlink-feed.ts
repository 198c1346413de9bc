import { type PublicClient, parseAbi } from 'viem';
import type { Clock } from '../chain/clock.ts';
import { type PriceFeed, PriceFeedError, type PriceReading } from './price-feed.ts';

/** The part of Chainlink's AggregatorV3Interface we read. */
const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

const PRICE_DECIMALS = 8;

/**
 * One coin's Chainlink USD aggregator read over RPC (docs/architecture.md "Oracle rounds"; every coin
 * of issue 19 has its own). A reading counts only if
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
      let data: readonly [bigint, bigint, bigint, bigint, bigint];
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
  };
}
