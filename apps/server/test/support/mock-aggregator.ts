import type { Address } from 'viem';
import { mockAggregatorAbi, mockAggregatorBytecode } from '../../src/prices/mock-aggregator.gen.ts';
import type { TestChain } from './test-chain.ts';

// A Chainlink-compatible mock aggregator (src/prices/mock-aggregator.gen.ts) on a test's chain, deployed
// and written by dev player #0: a price feed whose rounds a test publishes one by one.

function writer(chain: TestChain) {
  const wallet = chain.players[0];
  if (!wallet) throw new Error('no player');
  return wallet;
}

export async function deployMockAggregator(chain: TestChain): Promise<Address> {
  const deployer = writer(chain);
  const hash = await deployer.deployContract({ abi: mockAggregatorAbi, bytecode: mockAggregatorBytecode });
  const receipt = await deployer.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('no contract address');
  return receipt.contractAddress;
}

/** `aggregator` publishes round `roundId`: `answer` (8 decimals), updated at `updatedAt` (unix seconds). */
export async function publishAggregatorRound(
  chain: TestChain,
  aggregator: Address,
  round: { roundId: bigint; answer: bigint; updatedAt: bigint },
) {
  const wallet = writer(chain);
  const hash = await wallet.writeContract({
    address: aggregator,
    abi: mockAggregatorAbi,
    functionName: 'setRoundData',
    args: [round.roundId, round.answer, round.updatedAt],
  });
  await wallet.waitForTransactionReceipt({ hash });
}
