import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import { type Address, type Hash, type Hex, parseEventLogs } from 'viem';
import { hostileBettorAbi, hostileBettorBytecode } from '../../../../packages/escrow/test/attackers.gen.ts';
import type { TestChain } from './test-chain.ts';

// What the escrow tests of stakes and claims share (rounds and markets alike): a deposit's stake,
// what the escrow paid and how a balance moved by it, and a bettor contract that burns the gas of
// every payout pushed to it.

/** The stake a deposit transaction made (its first `Deposited`): its id, owner and log, and its block. */
export async function stakeOf(chain: TestChain, hash: Hash) {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const [event] = parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs, eventName: 'Deposited' });
  if (!event) throw new Error(`no deposit in ${hash}`);
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return {
    stakeId: event.args.stakeId,
    owner: event.args.owner,
    txHash: hash,
    logIndex: event.logIndex,
    blockNumber: receipt.blockNumber,
    blockTime: new Date(Number(block.timestamp) * 1000),
  };
}

/** What the escrow paid out in a transaction: each `Claimed` and `Refunded`, in log order. */
export async function escrowPayoutsOf(chain: TestChain, hash: Hash) {
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return parseEventLogs({ abi: predictionEscrowAbi, logs: receipt.logs }).flatMap((event) =>
    event.eventName === 'Claimed' || event.eventName === 'Refunded'
      ? [
          {
            kind: event.eventName === 'Claimed' ? ('claimed' as const) : ('refunded' as const),
            stakeId: event.args.stakeId,
            owner: event.args.owner,
            amount: event.args.amount,
          },
        ]
      : [],
  );
}

/**
 * `address`'s balance from now on. `moved(...sent)` is what it gained since, the gas of `sent` (the
 * transactions `address` sent itself, e.g. a wallet's own claim) given back, so a payout compares to
 * the wei: exactly stake plus profit, or the stake for a refund.
 */
export async function watchBalance(chain: TestChain, address: Address) {
  const before = await chain.publicClient.getBalance({ address });
  return {
    async moved(...sent: Hash[]): Promise<bigint> {
      let gas = 0n;
      for (const hash of sent) {
        const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        if (receipt.from.toLowerCase() !== address.toLowerCase())
          throw new Error(`${hash} was sent by ${receipt.from}, not ${address}`);
        gas += receipt.gasUsed * receipt.effectiveGasPrice;
      }
      return (await chain.publicClient.getBalance({ address })) - before + gas;
    },
  };
}

/**
 * A HostileBettor (packages/escrow's test contract) deployed by `deployer`, set to burn the gas of
 * any payout pushed to it, which then deposits `amount` on side 2 (NO, or bear) of `market` from the
 * contract itself: the burner's address and its deposit's hash.
 */
export async function gasBurnerStake(
  chain: TestChain,
  deployer: TestChain['operator'],
  escrow: Address,
  market: { id: Hex; closesAt: number },
  amount: bigint,
): Promise<{ burner: Address; hash: Hash }> {
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
  const hash = await deployer.writeContract({
    address: burner,
    abi: hostileBettorAbi,
    functionName: 'bet',
    args: [market.id, market.closesAt, 2],
    value: amount,
  });
  return { burner, hash };
}
