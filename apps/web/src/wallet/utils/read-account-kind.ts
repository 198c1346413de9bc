import { type AccountKind, accountKind } from '@pm/core/account-kind';
import type { Config } from 'wagmi';
import { getBytecode } from 'wagmi/actions';

/**
 * The kind of account at `address`, from its code on `chainId` (docs/security.md "Payments sent
 * through contracts").
 */
export async function readAccountKind(
  config: Config,
  address: `0x${string}`,
  chainId: number,
): Promise<AccountKind> {
  return accountKind(await getBytecode(config, { address, chainId }));
}
