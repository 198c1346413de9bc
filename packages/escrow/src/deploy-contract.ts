import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hash,
  type Hex,
  hexToBytes,
  keccak256,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';

// The one way an escrow contract is deployed (src/deploy.ts, src/deploy-market-escrow.ts): the
// constructor tried first, so a refusal comes back as its custom error with nothing sent; then the
// transaction, its receipt, and this build's runtime code checked at the address.

export type ContractDeployed = { address: Address; transactionHash: Hash; blockNumber: bigint };

export type ContractToDeploy = {
  /** The contract's name, for the errors. */
  name: string;
  /** The creation code with its constructor's arguments (viem's encodeDeployData). */
  data: Hex;
  /** The error a reverting constructor is refused with, or null to throw viem's own. */
  refusal: (error: unknown) => Error | null;
  /** The hash of the deployed code as `expectedCodeHash` was taken (immutables zeroed). */
  codeHash: (code: Hex) => Hex;
  expectedCodeHash: Hex;
};

export async function deployContract(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  contract: ContractToDeploy,
): Promise<ContractDeployed> {
  const { account } = walletClient;
  const { data } = contract;
  await tryConstructor(publicClient, account, contract);
  const transactionHash = await walletClient.sendTransaction({ account, chain: walletClient.chain, data });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: transactionHash });
  if (receipt.status !== 'success') {
    throw new Error(`The deployment ${transactionHash} reverted in block ${receipt.blockNumber}`);
  }
  const address = receipt.contractAddress;
  if (!address) throw new Error(`The deployment ${transactionHash} created no contract`);
  const code = await publicClient.getCode({ address, blockNumber: receipt.blockNumber });
  if (!code || code === '0x')
    throw new Error(`No code at ${address} after the deployment ${transactionHash}`);
  if (contract.codeHash(code) !== contract.expectedCodeHash) {
    throw new Error(`The code at ${address} is not this build's ${contract.name}`);
  }
  return { address: getAddress(address), transactionHash, blockNumber: receipt.blockNumber };
}

/**
 * Runs the constructor as `account` without sending anything: throws `contract.refusal`'s error when it
 * would revert. A command that deploys two contracts asks both first, so neither is sent when one is refused.
 */
export async function tryConstructor(
  publicClient: PublicClient,
  account: Account | Address,
  contract: Pick<ContractToDeploy, 'data' | 'refusal'>,
): Promise<void> {
  await publicClient.call({ account, data: contract.data }).catch((error: unknown) => {
    throw contract.refusal(error) ?? error;
  });
}

/**
 * The hash of runtime code with the bytes of its immutables zeroed (the constructor writes them into
 * the code): the same for every deployment of one build, whatever its settings.
 */
export function codeHashWithoutImmutables(
  code: Hex,
  immutableReferences: ReadonlyArray<{ start: number; length: number }>,
): Hex {
  const bytes = hexToBytes(code);
  for (const { start, length } of immutableReferences) {
    if (start + length <= bytes.length) bytes.fill(0, start, start + length);
  }
  return keccak256(bytes);
}
