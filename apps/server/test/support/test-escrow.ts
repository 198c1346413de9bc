import { predictionEscrowAbi, predictionEscrowBytecode } from '@pm/escrow/prediction-escrow.gen';
import { type Address, parseEther } from 'viem';
import type { TestChain } from './test-chain.ts';

/**
 * Deploys the escrow from the dev admin (the vault account) with this operator: the one place a
 * server test names the constructor's arguments, so a change of them is made here only.
 */
export async function deployTestEscrow(
  chain: TestChain,
  roles: { operator: Address; guardian?: Address; treasury?: Address; minPayoutDelay?: number },
): Promise<Address> {
  const hash = await chain.vault.deployContract({
    abi: predictionEscrowAbi,
    bytecode: predictionEscrowBytecode,
    args: [
      chain.vault.account.address,
      roles.operator,
      roles.guardian ?? player(chain, 2),
      roles.treasury ?? player(chain, 1),
      parseEther('100'),
      parseEther('100'),
      roles.minPayoutDelay ?? 60,
      // The flag bond's floor and share of the pool: the product's defaults (docs/product.md).
      parseEther('0.01'),
      500,
    ],
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('escrow deploy failed');
  return receipt.contractAddress;
}

function player(chain: TestChain, index: number): Address {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no dev player ${index}`);
  return wallet.account.address;
}
