import type { AccountKind } from '@pm/core/account-kind';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Config, useConfig } from 'wagmi';
import { useWalletContext } from '../wallet-context.ts';

/** An address's kind on the deployment's chain, from its bytecode; the reading code loads with the first read. */
export function accountKindQueryOptions(config: Config, chainId: number, address: `0x${string}` | undefined) {
  return queryOptions({
    queryKey: ['account-kind', chainId, address],
    queryFn: async (): Promise<AccountKind> => {
      if (!address) throw new Error('address is required');
      const { readAccountKind } = await import('../utils/read-account-kind.ts');
      return readAccountKind(config, address, chainId);
    },
    enabled: Boolean(address),
    staleTime: 5 * 60_000,
  });
}

/**
 * What kind of account is connected: a contract wallet's payments are not credited,
 * so the payment dialog and the oracle bet panel say so, and refuse, before anything is paid.
 * Undefined while unknown. The code that reads the account loads only once a wallet is connected:
 * the bet panel is on /oracle-predictions at start, and visitors without a wallet need none of it
 * (decision 006, JS budget).
 */
export function useAccountKind(address: `0x${string}` | undefined): AccountKind | undefined {
  const config = useConfig();
  const { chain } = useWalletContext();
  const { data } = useQuery(accountKindQueryOptions(config, chain.id, address));
  return address ? data : undefined;
}
