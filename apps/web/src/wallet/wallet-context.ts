import { createContext, use } from 'react';
import type { Chain } from 'viem';

export type WalletContextValue = {
  /** The deployment's chain (GET /api/config). */
  chain: Chain;
  /** Starts the connect flow: MetaMask, else the only wallet found, else lets the user choose. */
  connect: () => void;
  isConnecting: boolean;
};

export const WalletContext = createContext<WalletContextValue | null>(null);

export function useWalletContext(): WalletContextValue {
  const value = use(WalletContext);
  if (!value) throw new Error('Wallet hooks must be used inside <WalletProvider>');
  return value;
}
