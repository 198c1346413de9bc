import type { AccountKind } from '@pm/core/account-kind';
import { useQuery } from '@tanstack/react-query';
import { useConfig } from 'wagmi';
import { useWalletContext } from '../wallet-context.ts';

/**
 * What kind of account is connected (review F14): a contract wallet's payments are not credited,
 * so the payment dialog and the oracle bet panel say so, and refuse, before anything is paid.
 * Undefined while unknown. The code that reads the account loads only once a wallet is connected:
 * the bet panel is on /oracle-predictions at start, and visitors without a wallet need none of it
 * (decision 006, JS budget).
 */
export function useAccountKind(address: `0x${string}` | undefined): AccountKind | undefined {
  const config = useConfig();
  const { chain } = useWalletContext();
  const { data } = useQuery({
    queryKey: ['account-kind', chain.id, address],
    queryFn: async () => {
      if (!address) throw new Error('address is required');
      const { readAccountKind } = await import('../utils/read-account-kind.ts');
      return readAccountKind(config, address, chain.id);
    },
    enabled: Boolean(address),
    staleTime: 5 * 60_000,
  });
  return address ? data : undefined;
}
