import type { PublicClient, TransactionReceipt } from 'viem';

/**
 * What is wrong with owing `amountWei` back for the transaction of `receipt` (security review 2,
 * N9: `refunds:add` checked only that it succeeded): its block must be final and still canonical,
 * and the vault must have received at least the amount in it. A direct transfer's value is what it
 * brought; for one through a contract (F14, the reason the command exists) the vault's balance
 * change over the block stands in, which other transfers of the vault's in that block can skew
 * (hence `--force`). An empty list: nothing wrong.
 */
export async function refundTransferProblems(
  chain: PublicClient,
  input: {
    receipt: TransactionReceipt;
    vault: `0x${string}`;
    amountWei: bigint;
    confirmations: number | 'finalized';
  },
): Promise<string[]> {
  const { receipt, vault, amountWei, confirmations } = input;
  const problems: string[] = [];
  const finalHeight =
    confirmations === 'finalized'
      ? ((await chain.getBlock({ blockTag: 'finalized' })).number ?? 0n)
      : (await chain.getBlockNumber({ cacheTime: 0 })) - BigInt(confirmations) + 1n;
  if (receipt.blockNumber > finalHeight) {
    problems.push(
      `its block ${receipt.blockNumber} is not final yet (final up to ${finalHeight}): try again later`,
    );
  }
  const canonical = await chain.getBlock({ blockNumber: receipt.blockNumber });
  if (canonical.hash !== receipt.blockHash) {
    problems.push(
      `its block ${receipt.blockHash} is no longer on the chain (a reorg): it may have moved no money`,
    );
  }
  const transaction = await chain.getTransaction({ hash: receipt.transactionHash });
  const direct = transaction.to?.toLowerCase() === vault.toLowerCase();
  const received = direct
    ? transaction.value
    : (await chain.getBalance({ address: vault, blockNumber: receipt.blockNumber })) -
      (await chain.getBalance({ address: vault, blockNumber: receipt.blockNumber - 1n }));
  if (received <= 0n) {
    problems.push('the vault received nothing in it');
  } else if (amountWei > received) {
    problems.push(
      `${amountWei} wei is more than the vault received in it (${received} wei${direct ? '' : ', its balance change over the block'})`,
    );
  }
  return problems;
}
