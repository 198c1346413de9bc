import type { Address } from 'viem';
import { useConnection, useDisconnect } from 'wagmi';
import { useWalletContext } from '../wallet-context.ts';

export type Wallet = {
  address: Address | undefined;
  isConnected: boolean;
  /** Connected and on the deployment's chain: the only state in which payments may be sent. */
  isCorrectChain: boolean;
  /** The wallet's current chain, which may not be the deployment's. */
  chainId: number | undefined;
  /** The deployment's chain id. */
  deploymentChainId: number;
  isConnecting: boolean;
  connect: () => void;
  disconnect: () => void;
};

/** The connected wallet for any component under <WalletProvider> (docs/product.md §4 wallet states). */
export function useWallet(): Wallet {
  const connection = useConnection();
  const { mutate: disconnect } = useDisconnect();
  const { chain, connect, isConnecting } = useWalletContext();
  const isConnected = connection.isConnected && connection.address !== undefined;
  return {
    address: isConnected ? connection.address : undefined,
    isConnected,
    isCorrectChain: isConnected && connection.chainId === chain.id,
    chainId: connection.chainId,
    deploymentChainId: chain.id,
    isConnecting: isConnecting || connection.isConnecting,
    connect,
    disconnect: () => disconnect(),
  };
}
