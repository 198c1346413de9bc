import type { PublicClient } from 'viem';

/**
 * The vault's balance from the chain, cached briefly: every page polls it (docs/product.md §7: 10 s).
 * Each fresh read is handed to `onRead` (the bnbpredict_vault_balance_wei gauge).
 */
export function createVaultBalanceReader(
  client: PublicClient,
  address: `0x${string}`,
  options: { ttlMs?: number; onRead?: (balanceWei: bigint) => void } = {},
) {
  const ttlMs = options.ttlMs ?? 2_000;
  let cached: { at: number; value: bigint } | undefined;
  let inFlight: Promise<bigint> | undefined;
  return async function readVaultBalance(): Promise<bigint> {
    if (cached && Date.now() - cached.at < ttlMs) return cached.value;
    inFlight ??= client
      .getBalance({ address })
      .then((value) => {
        cached = { at: Date.now(), value };
        options.onRead?.(value);
        return value;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}
