import {
  type Account,
  type Address,
  type Chain,
  encodeDeployData,
  getAddress,
  type Hash,
  type Hex,
  hexToBytes,
  keccak256,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { decodeRevert, formatRevert } from './decode-revert.ts';
import {
  marketEscrowAbi,
  marketEscrowBytecode,
  marketEscrowDeployedBytecode,
  marketEscrowImmutableReferences,
} from './market-escrow.gen.ts';

// Deploying MarketEscrow (docs/decisions/031, 034 "Order of the work"): used by `npm start`, e2e, the
// tests and `vault:deploy`, and by doctor to check the code at an address is this build's.

/** What a deployment fixes, by name: roles, the judged markets' limits, the price kinds' fees and feeds. */
export type MarketEscrowSettings = {
  admin: Address;
  operator: Address;
  guardian: Address;
  /** Where fees go, for good (an immutable). */
  treasury: Address;
  /** Payout wei a judged settlement may draw at most, and what refills per hour (0.1–10,000 BNB). */
  settlementCapacity: bigint;
  settlementRefillPerHour: bigint;
  /** Seconds between a judged settlement and its first payout at least (60–604,800). */
  minPayoutDelay: number;
  /** A dispute's bond: at least this (0.001–10 BNB) and this share of the market's stakes (0–2,000 bps). */
  disputeBondMin: bigint;
  disputeBondBps: number;
  /** The fee a round's and a price market's settlement keeps, in basis points of the pool (0–1,000). */
  roundFeeBps: number;
  priceMarketFeeBps: number;
  /** Seconds a feed's price may be old at the instant it decides (10–86,400). */
  maxPriceAge: number;
  /** Each coin's Chainlink proxy (AggregatorV3 with phases), by coin index: 1 to 16, each with code. */
  feeds: readonly Address[];
};

/** The constructor's `Config`: the one place it is built from the settings. */
export function marketEscrowConfig(settings: MarketEscrowSettings) {
  return {
    admin: settings.admin,
    operator: settings.operator,
    guardian: settings.guardian,
    treasury: settings.treasury,
    settlementCapacity: settings.settlementCapacity,
    settlementRefillPerHour: settings.settlementRefillPerHour,
    minPayoutDelay: settings.minPayoutDelay,
    disputeBondMin: settings.disputeBondMin,
    disputeBondBps: settings.disputeBondBps,
    roundFeeBps: settings.roundFeeBps,
    priceMarketFeeBps: settings.priceMarketFeeBps,
    maxPriceAge: settings.maxPriceAge,
    feeds: [...settings.feeds],
  } as const;
}

/** A deployment MarketEscrow's constructor refuses, named by its custom error (`BadConfig`, `ZeroAddress`, …). */
export class MarketEscrowDeployError extends Error {
  override name = 'MarketEscrowDeployError';
  constructor(
    readonly errorName: string,
    readonly args: readonly unknown[],
    options?: { cause?: unknown },
  ) {
    super(`MarketEscrow's constructor reverted: ${formatRevert({ errorName, args })}`, options);
  }
}

export type MarketEscrowDeployed = {
  address: Address;
  transactionHash: Hash;
  /** The deployment's block: where the server's reconciliation starts reading events. */
  blockNumber: bigint;
};

/**
 * Deploys MarketEscrow from the wallet's account and waits for its receipt. A constructor that would
 * revert (a setting out of bounds, a feed without code, the operator as admin) is refused with its
 * custom error before anything is sent. Throws unless the deployment succeeded and this build's runtime
 * code is at the address.
 */
export async function deployMarketEscrow(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  settings: MarketEscrowSettings,
): Promise<MarketEscrowDeployed> {
  const { account } = walletClient;
  const data = encodeDeployData({
    abi: marketEscrowAbi,
    bytecode: marketEscrowBytecode,
    args: [marketEscrowConfig(settings)],
  });
  await publicClient.call({ account, data }).catch((error: unknown) => {
    const revert = decodeRevert(error, marketEscrowAbi);
    throw revert ? new MarketEscrowDeployError(revert.errorName, revert.args, { cause: error }) : error;
  });
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
  if (marketEscrowCodeHash(code) !== marketEscrowRuntimeCodeHash()) {
    throw new Error(`The code at ${address} is not this build's MarketEscrow`);
  }
  return { address: getAddress(address), transactionHash, blockNumber: receipt.blockNumber };
}

/**
 * The hash of runtime code with its immutables' bytes zeroed (the treasury, the fees, the bond, the
 * price age and the coin count are written into the code at deploy): the same for every deployment of
 * one build, whatever its settings. Read the settings themselves from the contract.
 */
export function marketEscrowCodeHash(code: Hex): Hex {
  const bytes = hexToBytes(code);
  for (const { start, length } of marketEscrowImmutableReferences) {
    if (start + length <= bytes.length) bytes.fill(0, start, start + length);
  }
  return keccak256(bytes);
}

/** `marketEscrowCodeHash` of this build's MarketEscrow, from the compiled artifact (for doctor). */
export function marketEscrowRuntimeCodeHash(): Hex {
  return keccak256(marketEscrowDeployedBytecode);
}
