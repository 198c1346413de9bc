import type { Account, Address, Chain, Hash, Hex, Transport, WalletClient } from 'viem';
import { getBlock } from 'viem/actions';

/** One transaction a payment sends: where, how much, and the bytes that say what it pays for. */
export type PaymentCall = { to: Address; value: bigint; data: Hex | undefined };

/**
 * Whoever pays: an address and a way to send one transaction from it. A wallet client (local key
 * or an account unlocked on the node) is one (walletPayer); a tool that queues or pre-signs its
 * transactions (chaos, the bench) brings its own `send`.
 */
export type Payer = {
  address: Address;
  send: (call: PaymentCall) => Promise<Hash>;
  /**
   * The chain's time (its latest block) in unix seconds: a creation's close is counted from it
   * (decision 026). Absent: this machine's clock.
   */
  nowS?: () => Promise<number>;
};

export function walletPayer(wallet: WalletClient<Transport, Chain, Account>): Payer {
  return {
    address: wallet.account.address,
    send: (call) => wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, ...call }),
    nowS: async () => Number((await getBlock(wallet, { blockTag: 'latest' })).timestamp),
  };
}
