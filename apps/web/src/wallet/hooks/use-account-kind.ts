import { type AccountKind, accountKind } from '@pm/core/account-kind';
import { useBytecode } from 'wagmi';
import { useWalletContext } from '../wallet-context.ts';

/**
 * What kind of account is connected (review F14): a contract wallet's payments are not credited,
 * so the payment dialog says so, and refuses, before anything is paid. Undefined while unknown.
 */
export function useAccountKind(address: `0x${string}` | undefined): AccountKind | undefined {
  const { chain } = useWalletContext();
  const { data, isSuccess } = useBytecode({
    address,
    chainId: chain.id,
    query: { enabled: Boolean(address), staleTime: 5 * 60_000 },
  });
  return address && isSuccess ? accountKind(data) : undefined;
}
