import { depositCall } from '@pm/escrow/deposit-call';
import type { DepositTerms } from '@pm/escrow/deposit-terms';
import { type Chain, createPublicClient, createWalletClient, defineChain, type Hash, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EscrowConfig } from './api.ts';
import type { ExampleSettings } from './settings.ts';

// One `deposit(...)` call into the escrow (docs/api.md "The escrow contract"): the stake is the call's
// value, the terms say what it pays for. The bettor is whoever sends it, and only it is paid back.

export type ExampleWallet = ReturnType<typeof openWallet>;

export function openWallet(settings: ExampleSettings, escrow: EscrowConfig) {
  const account = privateKeyToAccount(settings.privateKey);
  const chain: Chain = defineChain({
    id: escrow.chainId,
    name: `chain ${escrow.chainId}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  const transport = http(settings.rpcUrl);
  const reader = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport, account });
  return { account, reader, wallet, escrow };
}

/** The chain's own clock (the latest block's time, unix seconds): chain time decides, not this machine's. */
export async function chainNow(wallet: ExampleWallet): Promise<number> {
  const block = await wallet.reader.getBlock({ blockTag: 'latest' });
  return Number(block.timestamp);
}

/** Sends the deposit, waits for it to be mined and returns its hash (it reverts: thrown). */
export async function sendDeposit(
  wallet: ExampleWallet,
  terms: DepositTerms,
  amountWei: bigint,
): Promise<Hash> {
  const chainId = await wallet.reader.getChainId();
  if (chainId !== wallet.escrow.chainId) {
    throw new Error(
      `RPC_URL is chain ${chainId}, but the API's escrow is on chain ${wallet.escrow.chainId}.`,
    );
  }
  const call = depositCall(wallet.escrow.address, terms, amountWei);
  const hash = await wallet.wallet.sendTransaction(call);
  const receipt = await wallet.reader.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`The deposit ${hash} reverted.`);
  return hash;
}
