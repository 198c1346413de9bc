import { createWalletClient, defineChain, http, type PrivateKeyAccount, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../config/config.ts';

export type VaultSigner = { address: `0x${string}`; account: PrivateKeyAccount; wallet: WalletClient };

/**
 * The vault hot wallet that pays winners. Null when no VAULT_PRIVATE_KEY is configured: claims
 * then answer 503 CLAIMS_UNAVAILABLE. Its address must be the vault's, or start-up fails.
 */
export function createVaultSigner(config: Config): VaultSigner | null {
  if (!config.vault.privateKey) return null;
  const account = privateKeyToAccount(config.vault.privateKey);
  if (account.address.toLowerCase() !== config.vault.address.toLowerCase()) {
    throw new Error('VAULT_PRIVATE_KEY does not belong to VAULT_ADDRESS');
  }
  const chain = defineChain({
    id: config.chain.id,
    name: `Chain ${config.chain.id}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [config.chain.rpcUrl] } },
  });
  const wallet = createWalletClient({
    account,
    chain,
    transport: http(config.chain.rpcUrl, { retryCount: 2 }),
  });
  return { address: config.vault.address, account, wallet };
}
