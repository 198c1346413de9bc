import {
  type Account,
  type Address,
  type Chain,
  encodeDeployData,
  type Hex,
  keccak256,
  type PublicClient,
  type Transport,
  type WalletClient,
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

/** Its `blockNumber` is where the server's reconciliation starts reading events. */
export type MarketEscrowDeployed = ContractDeployed;

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
  return deployContract(walletClient, publicClient, marketEscrowToDeploy(settings));
}

/** Throws the `MarketEscrowDeployError` the constructor would revert with as `account`; sends nothing. */
export async function tryMarketEscrowConstructor(
  publicClient: PublicClient,
  account: Account | Address,
  settings: MarketEscrowSettings,
): Promise<void> {
  await tryConstructor(publicClient, account, marketEscrowToDeploy(settings));
}

function marketEscrowToDeploy(settings: MarketEscrowSettings): ContractToDeploy {
  return {
    name: 'MarketEscrow',
    data: encodeDeployData({
      abi: marketEscrowAbi,
      bytecode: marketEscrowBytecode,
      args: [marketEscrowConfig(settings)],
    }),
    refusal: (error) => {
      const revert = decodeRevert(error, marketEscrowAbi);
      return revert ? new MarketEscrowDeployError(revert.errorName, revert.args, { cause: error }) : null;
    },
    codeHash: marketEscrowCodeHash,
    expectedCodeHash: marketEscrowRuntimeCodeHash(),
  };
}

/**
 * The hash of runtime code with its immutables' bytes zeroed (the treasury, the fees, the bond, the
 * price age and the coin count are written into the code at deploy): the same for every deployment of
 * one build, whatever its settings. Read the settings themselves from the contract.
 */
export function marketEscrowCodeHash(code: Hex): Hex {
  return codeHashWithoutImmutables(code, marketEscrowImmutableReferences);
}

/** `marketEscrowCodeHash` of this build's MarketEscrow, from the compiled artifact (for doctor). */
export function marketEscrowRuntimeCodeHash(): Hex {
  return keccak256(marketEscrowDeployedBytecode);
}
