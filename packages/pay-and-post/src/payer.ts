import type { Account, Address, Chain, Hash, Hex, Transport, WalletClient } from 'viem';

/** One transaction a payment sends: where, how much, and the bytes that say what it pays for. */
export type PaymentCall = { to: Address; value: bigint; data: Hex | undefined };

/**
 * Whoever pays: an address and a way to send one transaction from it. A wallet client (local key
 * or an account unlocked on the node) is one (walletPayer); a tool that queues or pre-signs its
 * transactions (chaos, the bench) brings its own `send`.
 */
export type Payer = { address: Address; send: (call: PaymentCall) => Promise<Hash> };

export function walletPayer(wallet: WalletClient<Transport, Chain, Account>): Payer {
  return {
    address: wallet.account.address,
    send: (call) => wallet.sendTransaction({ account: wallet.account, chain: wallet.chain, ...call }),
  };
}
