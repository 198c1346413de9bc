import { normalizeAddress } from '@pm/core/address';
import type { ChainTools } from './chain-tools.ts';

// What the chain says happened to the operator key: every transaction to or from it, read block by
// block with its receipt. This, not the database, is what the invariants hold the server to.

export type OperatorTransfer = {
  hash: string;
  blockNumber: bigint;
  from: string;
  to: string;
  value: bigint;
  input: string;
  nonce: number;
  success: boolean;
  /** What the sender paid for gas (gasUsed × effective price): only the operator key's count here. */
  gasCostWei: bigint;
};

export function createOperatorLedger(chain: ChainTools, operatorAddress: string) {
  const operator = operatorAddress.toLowerCase();
  const blocks = new Map<bigint, OperatorTransfer[]>();
  let scannedTo = -1n;

  async function readBlock(number: bigint): Promise<OperatorTransfer[]> {
    const block = await chain.publicClient.getBlock({ blockNumber: number, includeTransactions: true });
    const transfers: OperatorTransfer[] = [];
    for (const tx of block.transactions) {
      const from = tx.from.toLowerCase();
      const to = tx.to?.toLowerCase() ?? '';
      if (from !== operator && to !== operator) continue;
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: tx.hash });
      transfers.push({
        hash: tx.hash.toLowerCase(),
        blockNumber: number,
        from,
        to,
        value: tx.value,
        input: tx.input,
        nonce: tx.nonce,
        success: receipt.status === 'success',
        gasCostWei: receipt.gasUsed * receipt.effectiveGasPrice,
      });
    }
    return transfers;
  }

  return {
    /** Reads every block up to the head not read yet; answers the head read to. */
    async sync(): Promise<bigint> {
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      for (let number = scannedTo + 1n; number <= head; number++) blocks.set(number, await readBlock(number));
      for (const number of [...blocks.keys()]) if (number > head) blocks.delete(number);
      scannedTo = head;
      return head;
    },
    /** A reorg rewrote every block from `from` on: read them again next sync. */
    forgetFrom(from: bigint) {
      for (const number of [...blocks.keys()]) if (number >= from) blocks.delete(number);
      if (scannedTo >= from) scannedTo = from - 1n;
    },
    transfers(): OperatorTransfer[] {
      return [...blocks.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .flatMap(([, list]) => list);
    },
    async balanceAt(blockNumber: bigint): Promise<bigint> {
      return chain.publicClient.getBalance({ address: normalizeAddress(operator), blockNumber });
    },
  };
}

export type OperatorLedger = ReturnType<typeof createOperatorLedger>;
