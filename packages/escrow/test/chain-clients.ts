import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  type TransactionReceipt,
} from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { startHardhatNode } from './hardhat-node.ts';

// A fresh Hardhat node and the clients every contract test drives it with: one way to read, to move
// time, to send as a dev account and to wait for a transaction that must succeed.

export const MNEMONIC = 'test test test test test test test test test test test junk';
export const devAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index });

export async function startChainClients(options: { pollingInterval: number }) {
  const node = await startHardhatNode();
  const transport = http(node.rpcUrl);
  const publicClient = createPublicClient({
    chain: hardhat,
    transport,
    pollingInterval: options.pollingInterval,
  });
  const testClient = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  const walletOf = (index: number) =>
    createWalletClient({ chain: hardhat, transport, account: devAccount(index) });

  /** The receipt of a transaction that must succeed; a revert throws. */
  async function mined(hash: Promise<Hash> | Hash): Promise<TransactionReceipt> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`);
    return receipt;
  }

  return { node, publicClient, testClient, walletOf, mined };
}
