import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, type Hash, parseEventLogs } from 'viem';
import { hostileBettorAbi, hostileBettorBytecode } from '../../../../packages/escrow/test/attackers.gen.ts';
import type { TestChain } from './test-chain.ts';

// What the escrow tests of claims share (rounds and markets alike): a deposit's stake, and a bettor
// contract that burns the gas of every payout pushed to it.

/** The stake a deposit transaction made: its id and owner, and its block. */
export async function stakeOf(chain: TestChain, hash: Hash) {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
  if (!event) throw new Error(`no deposit in ${hash}`);
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return {
    stakeId: event.args.stakeId,
    owner: event.args.owner,
    blockNumber: receipt.blockNumber,
    blockTime: new Date(Number(block.timestamp) * 1000),
  };
}

/**
 * A HostileBettor (packages/escrow's test contract) deployed by `deployer`, set to burn the gas of
 * any payout pushed to it: its `bet(market, closesAt, side)` deposits from the contract itself.
 */
export async function deployGasBurner(
  chain: TestChain,
  deployer: TestChain['operator'],
  escrow: Address,
): Promise<Address> {
  const deployed = await chain.publicClient.waitForTransactionReceipt({
    hash: await deployer.deployContract({
      abi: hostileBettorAbi,
      bytecode: hostileBettorBytecode,
      args: [escrow],
    }),
    pollingInterval: 50,
  });
  const burner = deployed.contractAddress as Address;
  await chain.publicClient.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: burner,
      abi: hostileBettorAbi,
      functionName: 'setMode',
      args: [1, '0x'],
    }),
    pollingInterval: 50,
  });
  return burner;
}
