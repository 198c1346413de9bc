import {
  type Account,
  type Address,
  type Chain,
  encodeDeployData,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  type Transport,
  type WalletClient,
  zeroAddress,
} from 'viem';
import { decodeRevert, formatRevert } from './decode-revert.ts';
import {
  type ContractDeployed,
  type ContractToDeploy,
  codeHashWithoutImmutables,
  deployContract,
  tryConstructor,
} from './deploy-contract.ts';
import {
  predictionEscrowAbi,
  predictionEscrowBytecode,
  predictionEscrowDeployedBytecode,
  predictionEscrowImmutableReferences,
} from './prediction-escrow.gen.ts';

// Deploying PredictionEscrow and reading its whole state at one block (decision 026 "The chain"): used
// by `npm start` (the dev chain's contract), `npm run ops -- vault:deploy` and `vault:status`, doctor
// and the metrics.

/** What a deployment fixes: the roles (the treasury for good), the settlement bucket, the delay, the bond. */
export type EscrowDeployment = {
  admin: Address;
  operator: Address;
  guardian: Address;
  treasury: Address;
  /** Payout wei a settlement may draw at most, and what refills per hour (0.1–10,000 BNB). */
  settlementCapacity: bigint;
  settlementRefillPerHour: bigint;
  /** Seconds between a settlement and its first payout at least (the guardian's window; 60–604,800). */
  minPayoutDelay: number;
  /** A dispute's bond: at least this (0.001–10 BNB) and this share of the pool (0–2,000 bps). */
  disputeBondMin: bigint;
  disputeBondBps: number;
};

/** The constructor's arguments in their order: the one place they are built. */
export function escrowConstructorArgs(deployment: EscrowDeployment) {
  return [
    deployment.admin,
    deployment.operator,
    deployment.guardian,
    deployment.treasury,
    deployment.settlementCapacity,
    deployment.settlementRefillPerHour,
    deployment.minPayoutDelay,
    deployment.disputeBondMin,
    deployment.disputeBondBps,
  ] as const;
}

/** A revert of the escrow, named by its custom error (a constructor's, or a role call's). */
export class EscrowRevertError extends Error {
  override name = 'EscrowRevertError';
  constructor(
    readonly errorName: string,
    readonly args: readonly unknown[],
    options?: { cause?: unknown },
  ) {
    super(`PredictionEscrow reverted: ${formatRevert({ errorName, args })}`, options);
  }
}

export type EscrowDeployed = ContractDeployed;

/**
 * Deploys the escrow from the wallet's account and waits for its receipt. A constructor that would
 * revert (the operator is the admin, a limit out of bounds) is refused with its custom error before
 * anything is sent. Throws unless the deployment succeeded and this build's runtime code is at the
 * address.
 */
export async function deployEscrow(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  deployment: EscrowDeployment,
): Promise<EscrowDeployed> {
  return deployContract(walletClient, publicClient, escrowToDeploy(deployment));
}

/** Throws the `EscrowRevertError` the constructor would revert with as `account`; sends nothing. */
export async function tryEscrowConstructor(
  publicClient: PublicClient,
  account: Account | Address,
  deployment: EscrowDeployment,
): Promise<void> {
  await tryConstructor(publicClient, account, escrowToDeploy(deployment));
}

function escrowToDeploy(deployment: EscrowDeployment): ContractToDeploy {
  return {
    name: 'PredictionEscrow',
    data: encodeDeployData({
      abi: predictionEscrowAbi,
      bytecode: predictionEscrowBytecode,
      args: escrowConstructorArgs(deployment),
    }),
    refusal: (error) => {
      const revert = decodeRevert(error);
      return revert ? new EscrowRevertError(revert.errorName, revert.args, { cause: error }) : null;
    },
    codeHash: runtimeCodeHash,
    expectedCodeHash: expectedRuntimeCodeHash(),
  };
}

/**
 * The hash of runtime code with its immutables' bytes zeroed (the treasury is written into the code
 * at deploy): the same for every deployment of one build, whatever its treasury. The treasury itself
 * is read from the contract (`treasury()`, which returns that immutable).
 */
export function runtimeCodeHash(code: Hex): Hex {
  return codeHashWithoutImmutables(code, predictionEscrowImmutableReferences);
}

/** `runtimeCodeHash` of this build's PredictionEscrow, from the compiled artifact. */
export function expectedRuntimeCodeHash(): Hex {
  return keccak256(predictionEscrowDeployedBytecode);
}

/** The contract's public constants (MAX_FEE_BPS, ESCAPE_DELAY, PAYOUT_GAS_CAP, MAX_DISPUTES, …), as bigints. */
export type EscrowConstantName = Extract<
  Extract<(typeof predictionEscrowAbi)[number], { type: 'function'; inputs: readonly [] }>['name'],
  Uppercase<string>
>;

/** Every constant of the ABI, so one added to the contract is read and shown without a change here. */
export const ESCROW_CONSTANTS = predictionEscrowAbi.flatMap((item) =>
  item.type === 'function' && item.inputs.length === 0 && item.name === item.name.toUpperCase()
    ? [item.name as EscrowConstantName]
    : [],
);

/** What the metrics watch, at one block. */
export type EscrowLevels = {
  address: Address;
  blockNumber: bigint;
  /** The contract's BNB. */
  balance: bigint;
  /** Everything it owes (pools, unclaimed payouts, unsent fees, credits); never above the balance. */
  liabilities: bigint;
  /** balance − liabilities: BNB forced in, nobody's stake (sweepExcess sends it to the treasury). */
  excess: bigint;
  /** Payout wei the operator can still settle before the bucket refills. */
  settlementAllowance: bigint;
  paused: boolean;
};

/**
 * What the chain says at one block: the levels, and every setting of `EscrowDeployment` as it stands
 * now (the operator, guardian, bucket and delay may have changed since the deployment; the treasury and
 * the dispute bond are immutables, so they never do). The deployment's `admin` is `owner` here, the
 * contract's own word for it, which a two-step transfer may have moved.
 */
export type EscrowStatus = EscrowLevels &
  Omit<EscrowDeployment, 'admin'> & {
    chainId: number;
    /** The admin now (Ownable2Step's owner). */
    owner: Address;
    /** The address a two-step ownership transfer waits on; null when none is pending. */
    pendingOwner: Address | null;
    nextStakeId: bigint;
    constants: Record<EscrowConstantName, bigint>;
    /** runtimeCodeHash of the code at the address: compare with expectedRuntimeCodeHash(). */
    codeHash: Hex;
  };

/** Thrown when there is no contract at the address at that block. */
export class EscrowNotFoundError extends Error {
  override name = 'EscrowNotFoundError';
}

type AtBlock = { blockNumber?: bigint | undefined };

/** The block to read at: the one asked for, or the latest (read fresh, never from a cache). */
async function blockOf(publicClient: PublicClient, options: AtBlock): Promise<bigint> {
  return options.blockNumber ?? (await publicClient.getBlockNumber({ cacheTime: 0 }));
}

/** The balance, the liabilities and the settlement bucket's level, all at one block. */
export async function readEscrowLevels(
  publicClient: PublicClient,
  address: Address,
  options: AtBlock = {},
): Promise<EscrowLevels> {
  const blockNumber = await blockOf(publicClient, options);
  const at = { address, abi: predictionEscrowAbi, blockNumber } as const;
  const [balance, liabilities, settlementAllowance, paused] = await Promise.all([
    publicClient.getBalance({ address, blockNumber }),
    publicClient.readContract({ ...at, functionName: 'liabilities' }),
    publicClient.readContract({ ...at, functionName: 'settlementAllowance' }),
    publicClient.readContract({ ...at, functionName: 'paused' }),
  ]);
  return {
    address: getAddress(address),
    blockNumber,
    balance,
    liabilities,
    excess: balance - liabilities,
    settlementAllowance,
    paused,
  };
}

/** Everything an operator checks of the escrow, every figure at the same block. */
export async function readEscrowStatus(
  publicClient: PublicClient,
  address: Address,
  options: AtBlock = {},
): Promise<EscrowStatus> {
  const blockNumber = await blockOf(publicClient, options);
  const code = await publicClient.getCode({ address, blockNumber });
  if (!code || code === '0x') {
    throw new EscrowNotFoundError(`No contract at ${getAddress(address)} at block ${blockNumber}`);
  }
  const at = { address, abi: predictionEscrowAbi, blockNumber } as const;
  const [
    chainId,
    levels,
    owner,
    pendingOwner,
    operator,
    guardian,
    treasury,
    settlementCapacity,
    settlementRefillPerHour,
    minPayoutDelay,
    disputeBondMin,
    disputeBondBps,
    nextStakeId,
    constantValues,
  ] = await Promise.all([
    publicClient.getChainId(),
    readEscrowLevels(publicClient, address, { blockNumber }),
    publicClient.readContract({ ...at, functionName: 'owner' }),
    publicClient.readContract({ ...at, functionName: 'pendingOwner' }),
    publicClient.readContract({ ...at, functionName: 'operator' }),
    publicClient.readContract({ ...at, functionName: 'guardian' }),
    publicClient.readContract({ ...at, functionName: 'treasury' }),
    publicClient.readContract({ ...at, functionName: 'settlementCapacity' }),
    publicClient.readContract({ ...at, functionName: 'settlementRefillPerHour' }),
    publicClient.readContract({ ...at, functionName: 'minPayoutDelay' }),
    publicClient.readContract({ ...at, functionName: 'disputeBondMin' }),
    publicClient.readContract({ ...at, functionName: 'disputeBondBps' }),
    publicClient.readContract({ ...at, functionName: 'nextStakeId' }),
    Promise.all(ESCROW_CONSTANTS.map((functionName) => publicClient.readContract({ ...at, functionName }))),
  ]);
  const constants = Object.fromEntries(
    // uint256 constants come back as bigints, a small one (MAX_DISPUTES, uint8) as a number.
    ESCROW_CONSTANTS.map((name, index) => [name, BigInt(constantValues[index] ?? 0)]),
  ) as Record<EscrowConstantName, bigint>;
  return {
    ...levels,
    chainId,
    owner,
    pendingOwner: pendingOwner === zeroAddress ? null : pendingOwner,
    operator,
    guardian,
    treasury,
    settlementCapacity,
    settlementRefillPerHour,
    minPayoutDelay,
    disputeBondMin,
    disputeBondBps,
    nextStakeId,
    constants,
    codeHash: runtimeCodeHash(code),
  };
}
