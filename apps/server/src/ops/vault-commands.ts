import { PRICE_SYMBOLS } from '@pm/core/constants';
import { formatBnbWithUnit, parseBnb } from '@pm/core/money';
import { type DecodedRevert, decodeRevert, formatRevert } from '@pm/escrow/decode-revert';
import {
  deployEscrow,
  type EscrowDeployment,
  EscrowNotFoundError,
  EscrowRevertError,
  type EscrowStatus,
  expectedRuntimeCodeHash,
  readEscrowStatus,
  tryEscrowConstructor,
} from '@pm/escrow/deploy';
import {
  deployMarketEscrow,
  MarketEscrowDeployError,
  type MarketEscrowSettings,
  tryMarketEscrowConstructor,
} from '@pm/escrow/deploy-market-escrow';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import {
  type Address,
  ContractFunctionExecutionError,
  encodeFunctionData,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  type PublicClient,
  publicActions,
} from 'viem';
import { createChainClient, createChainWallet } from '../chain/chain-client.ts';
import type { Config } from '../config/config.ts';
import { deployDevFeeds } from '../dev/dev-feeds.ts';
import { describeError } from '../errors/describe-error.ts';
import { marketEscrowFeeds, marketEscrowFees } from '../escrow/market-escrow-settings.ts';
import { type OpsArgs, type OpsCommand, RefusedError, UsageError } from './ops-commands.ts';

// The escrow contract's operations (decision 026, docs/operations.md "Contract operations"):
// deploy it, read its state, and the admin's and guardian's calls, each signed with that role's key
// from the settings. They need no database, so they run while the server runs (on PGlite too): a
// pause must never wait for a server to stop. A call the contract would refuse is simulated first and
// refused with its custom error, explained: which role it needs and which address holds it.

export type VaultOpsContext = {
  config: Config;
  out: (line: string) => void;
  /** The chain read by the commands; absent → built from config.chain. */
  chain?: PublicClient;
};

type VaultCommand = OpsCommand<VaultOpsContext>;
type Role = 'admin' | 'guardian';

/** Where each role's key is read from (config.escrow). */
const KEY_SETTING: Record<Role, string> = {
  admin: 'ESCROW_ADMIN_PRIVATE_KEY',
  guardian: 'ESCROW_GUARDIAN_PRIVATE_KEY',
};

const keyOf = (config: Config, role: Role) =>
  role === 'admin' ? config.escrow.adminPrivateKey : config.escrow.guardianPrivateKey;

const chainOf = (context: VaultOpsContext) => context.chain ?? createChainClient(context.config.chain);

const bnb = (wei: bigint) => `${formatBnbWithUnit(wei, { decimals: 18, trim: true })} (${wei} wei)`;

/** JSON with bigints as decimal strings (wei, blocks): exact, and what the API does. */
const json = (value: unknown) =>
  JSON.stringify(value, (_, each) => (typeof each === 'bigint' ? each.toString() : each));

export const vaultCommands: VaultCommand[] = [
  {
    name: 'vault:deploy',
    usage:
      'vault:deploy --admin <address> --operator <address> --guardian <address> --treasury <address> --capacity <BNB> --refill-per-hour <BNB> --min-payout-delay <seconds> --dispute-bond-min <BNB> --dispute-bond-bps <bps>',
    summary:
      "Deploy the escrow contracts, PredictionEscrow and MarketEscrow (its fees, price age and feeds from the settings), from ESCROW_ADMIN_PRIVATE_KEY's account (the admin may be another address, a Safe); prints their addresses and a JSON line",
    options: {
      admin: { type: 'string' },
      operator: { type: 'string' },
      guardian: { type: 'string' },
      treasury: { type: 'string' },
      capacity: { type: 'string' },
      'refill-per-hour': { type: 'string' },
      'min-payout-delay': { type: 'string' },
      'dispute-bond-min': { type: 'string' },
      'dispute-bond-bps': { type: 'string' },
    },
    async run(context, args) {
      const deployment = deploymentFrom(args);
      const { config, out } = context;
      const key = config.escrow.adminPrivateKey;
      if (!key)
        throw new UsageError('ESCROW_ADMIN_PRIVATE_KEY is not set: vault:deploy sends from its account.');
      const wallet = createChainWallet(config.chain, key);
      const chain = chainOf(context);
      const market: MarketEscrowSettings = {
        ...deployment,
        ...marketEscrowFees(config),
        feeds: await marketEscrowFeedsOnChain(config),
      };
      // Both constructors are tried before either is sent: one refused, neither is deployed.
      await tryEscrowConstructor(chain, wallet.account, deployment).catch((error: unknown) => {
        if (error instanceof EscrowRevertError) throw new RefusedError(explainDeployRevert(error));
        throw error;
      });
      await tryMarketEscrowConstructor(chain, wallet.account, market).catch(async (error: unknown) => {
        if (error instanceof MarketEscrowDeployError)
          throw new RefusedError(await explainMarketDeployRevert(error, chain, market));
        throw error;
      });
      const deployed = await deployEscrow(wallet, chain, deployment).catch((error: unknown) => {
        if (error instanceof EscrowRevertError) throw new RefusedError(explainDeployRevert(error));
        throw error;
      });
      const marketDeployed = await deployMarketEscrow(wallet, chain, market);
      out(
        `Deployed PredictionEscrow at ${deployed.address} (block ${deployed.blockNumber}, transaction ${deployed.transactionHash}).`,
      );
      out(`  admin ${deployment.admin}, operator ${deployment.operator}, guardian ${deployment.guardian}`);
      out(`  treasury ${deployment.treasury} (fixed for good)`);
      out(
        `  settlements draw at most ${bnb(deployment.settlementCapacity)}, refilled ${bnb(deployment.settlementRefillPerHour)} an hour; payouts open at least ${deployment.minPayoutDelay} s after a settlement`,
      );
      out(
        `  a dispute's bond is the larger of ${bnb(deployment.disputeBondMin)} and ${deployment.disputeBondBps} bps of the pool (fixed for good)`,
      );
      out(
        `Deployed MarketEscrow at ${marketDeployed.address} (block ${marketDeployed.blockNumber}, transaction ${marketDeployed.transactionHash}), with the same roles, limits and bond.`,
      );
      out(
        `  fees ${market.roundFeeBps} bps of a round's pool (ORACLE_FEE_BPS), ${market.priceMarketFeeBps} bps of a price market's (MARKET_FEE_BPS); a price decides when at most ${market.maxPriceAge} s old (ORACLE_MAX_AGE_S) (fixed for good)`,
      );
      out(
        `  feeds by coin index (fixed for good): ${PRICE_SYMBOLS.map((symbol, coin) => `${coin} ${symbol} ${market.feeds[coin]}`).join(', ')}`,
      );
      out(
        `Set ESCROW_ADDRESS=${deployed.address} and ESCROW_DEPLOY_BLOCK=${deployed.blockNumber} for the server (reconciliation starts at that block), then run npm run ops -- doctor.`,
      );
      out(
        `Set MARKET_ESCROW_ADDRESS=${marketDeployed.address} and MARKET_ESCROW_DEPLOY_BLOCK=${marketDeployed.blockNumber} beside them (its events are read from that block).`,
      );
      out(
        json({
          escrowAddress: deployed.address,
          chainId: config.chain.id,
          blockNumber: deployed.blockNumber,
          transactionHash: deployed.transactionHash,
          ...deployment,
          marketEscrow: {
            address: marketDeployed.address,
            blockNumber: marketDeployed.blockNumber,
            transactionHash: marketDeployed.transactionHash,
            roundFeeBps: market.roundFeeBps,
            priceMarketFeeBps: market.priceMarketFeeBps,
            maxPriceAge: market.maxPriceAge,
            feeds: market.feeds,
          },
        }),
      );
    },
  },
  {
    name: 'vault:status',
    usage: 'vault:status [--address <address>] [--block N]',
    summary:
      'The escrow (ESCROW_ADDRESS) at one block: code, roles, pause, balance, liabilities, settlement bucket, delay, constants; a table, then a JSON line',
    options: { address: { type: 'string' }, block: { type: 'string' } },
    async run(context, { values }) {
      const address = escrowAddress(context.config, values.address);
      const block = values.block;
      if (block !== undefined && (typeof block !== 'string' || !/^[0-9]+$/.test(block)))
        throw new UsageError('--block takes a block number.');
      const status = await readStatus(
        chainOf(context),
        address,
        block === undefined ? undefined : BigInt(block),
      );
      for (const line of statusTable(status)) context.out(line);
      context.out(json(status));
    },
  },
  roleCommand({
    name: 'vault:pause',
    usage: 'vault:pause',
    summary:
      "Pause the escrow's deposits and settlements, as the guardian (ESCROW_GUARDIAN_PRIVATE_KEY); claims, refunds and withdrawals go on",
    role: 'guardian',
    functionName: 'pause',
    done: 'Paused',
  }),
  roleCommand({
    name: 'vault:unpause',
    usage: 'vault:unpause',
    summary: 'Unpause the escrow, as the admin (ESCROW_ADMIN_PRIVATE_KEY)',
    role: 'admin',
    functionName: 'unpause',
    done: 'Unpaused',
  }),
  roleCommand({
    name: 'vault:veto',
    usage: 'vault:veto <marketKey>',
    summary:
      "Veto a settlement whose payouts have not opened, as the guardian (ESCROW_GUARDIAN_PRIVATE_KEY): the market refunds every stake; <marketKey> is the escrow's key (marketKey(id, closesAt))",
    role: 'guardian',
    functionName: 'veto',
    done: 'Vetoed the settlement of',
  }),
];

/** The constructor's settings from the command line, each checked for its form (the contract checks bounds). */
function deploymentFrom({ values, positionals }: OpsArgs): EscrowDeployment {
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  const text = (name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`Give --${name}.`);
    return value;
  };
  const address = (name: string): Address => {
    const value = text(name);
    if (!isAddress(value, { strict: false }))
      throw new UsageError(`--${name} takes an address, not '${value}'.`);
    return getAddress(value);
  };
  const amount = (name: string): bigint => {
    const value = text(name);
    try {
      return parseBnb(value);
    } catch {
      throw new UsageError(`--${name} takes an amount of BNB like 100 or 0.5, not '${value}'.`);
    }
  };
  const whole = (name: string, what: string): number => {
    const value = text(name);
    if (!/^[0-9]{1,10}$/.test(value)) throw new UsageError(`--${name} takes ${what}, not '${value}'.`);
    return Number(value);
  };
  return {
    admin: address('admin'),
    operator: address('operator'),
    guardian: address('guardian'),
    treasury: address('treasury'),
    settlementCapacity: amount('capacity'),
    settlementRefillPerHour: amount('refill-per-hour'),
    minPayoutDelay: whole('min-payout-delay', 'whole seconds'),
    disputeBondMin: amount('dispute-bond-min'),
    disputeBondBps: whole('dispute-bond-bps', 'whole basis points'),
  };
}

function explainDeployRevert(error: EscrowRevertError): string {
  const reason: Record<string, string> = {
    OperatorIsAdmin: 'the operator may never be the admin (--operator is --admin)',
    ZeroAddress: 'a role or the treasury is the zero address',
    LimitOutOfBounds:
      '--capacity must be from 0.1 to 10000 BNB, and --refill-per-hour more than 0 and at most --capacity',
    DelayOutOfBounds: `--min-payout-delay must be from 60 to 604800 seconds (1 minute to 7 days), not ${error.args[0]}`,
    OwnableInvalidOwner: '--admin is the zero address',
    DisputeBondOutOfBounds:
      '--dispute-bond-min must be from 0.001 to 10 BNB, and --dispute-bond-bps at most 2000',
  };
  return `${error.errorName}: ${reason[error.errorName] ?? `the constructor reverted with ${formatRevert(error)}`}`;
}

/**
 * The feeds MarketEscrow is deployed with (marketEscrowFeeds): on the local chain read another way than
 * PRICE_FEED=chainlink, the dev feeds, found where the dev feed writer's nonces put them or deployed.
 */
async function marketEscrowFeedsOnChain(config: Config): Promise<Address[]> {
  if (config.chain.isLocal && config.prices.feed !== 'chainlink') await deployDevFeeds(config.chain.rpcUrl);
  return marketEscrowFeeds(config);
}

/** MarketEscrow refuses only its own settings once PredictionEscrow took the shared ones: it names which. */
async function explainMarketDeployRevert(
  error: MarketEscrowDeployError,
  chain: PublicClient,
  settings: MarketEscrowSettings,
): Promise<string> {
  if (error.errorName !== 'BadConfig')
    return `${error.errorName}: MarketEscrow's constructor reverted with ${formatRevert(error)}`;
  const codes = await Promise.all(settings.feeds.map((address) => chain.getCode({ address })));
  const codeless = PRICE_SYMBOLS.filter((_, coin) => {
    const code = codes[coin];
    return code === undefined || code === '0x';
  }).map((symbol) => `${symbol} ${settings.feeds[PRICE_SYMBOLS.indexOf(symbol)]}`);
  const why =
    codeless.length > 0
      ? `no contract at the feed of ${codeless.join(', ')} on this chain (CHAINLINK_FEED_ADDRESS, CHAINLINK_FEED_ADDRESSES)`
      : `ORACLE_FEE_BPS (${settings.roundFeeBps}) and MARKET_FEE_BPS (${settings.priceMarketFeeBps}) must be at most 1000, ORACLE_MAX_AGE_S (${settings.maxPriceAge}) from 10 to 86400 seconds`;
  return `BadConfig: MarketEscrow refuses its settings: ${why}`;
}

function escrowAddress(config: Config, given?: unknown): Address {
  if (given !== undefined) {
    if (typeof given !== 'string' || !isAddress(given, { strict: false }))
      throw new UsageError(`--address takes an address, not '${String(given)}'.`);
    return getAddress(given);
  }
  if (!config.escrow.address)
    throw new UsageError('ESCROW_ADDRESS is not set: the escrow contract this command acts on.');
  return getAddress(config.escrow.address);
}

/** readEscrowStatus, with what is not an escrow at that address as a refusal naming it. */
async function readStatus(
  chain: PublicClient,
  address: Address,
  blockNumber?: bigint,
): Promise<EscrowStatus> {
  try {
    return await readEscrowStatus(chain, address, { blockNumber });
  } catch (error) {
    if (error instanceof EscrowNotFoundError) throw new RefusedError(error.message);
    if (error instanceof ContractFunctionExecutionError)
      throw new RefusedError(`${address} does not answer as a PredictionEscrow: ${describeError(error)}`);
    throw error;
  }
}

function statusTable(status: EscrowStatus): string[] {
  const expected = expectedRuntimeCodeHash();
  const { constants } = status;
  return [
    `PredictionEscrow ${status.address} on chain ${status.chainId} at block ${status.blockNumber}`,
    `  code            ${status.codeHash === expected ? `this build's (${expected})` : `NOT this build's: ${status.codeHash}, this build's is ${expected}`}`,
    `  admin           ${status.owner}${status.pendingOwner ? ` (a transfer to ${status.pendingOwner} waits for its acceptance)` : ''}`,
    `  operator        ${status.operator}`,
    `  guardian        ${status.guardian}`,
    `  treasury        ${status.treasury}`,
    `  paused          ${status.paused ? 'YES: deposits and settlements stop (claims, refunds and withdrawals go on)' : 'no'}`,
    `  balance         ${bnb(status.balance)}`,
    `  liabilities     ${bnb(status.liabilities)}`,
    `  excess          ${bnb(status.excess)}${status.excess > 0n ? ' (forced in: sweepExcess sends it to the treasury)' : ''}`,
    `  settlements     ${bnb(status.settlementAllowance)} can be drawn now, of ${bnb(status.settlementCapacity)}, refilled ${bnb(status.settlementRefillPerHour)} an hour`,
    `  payout delay    at least ${status.minPayoutDelay} s after a settlement`,
    `  dispute bond    the larger of ${bnb(status.disputeBondMin)} and ${status.disputeBondBps} bps of the pool`,
    `  stakes          ${status.nextStakeId - 1n} deposited`,
    `  constants       ${Object.entries(constants)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')}`,
  ];
}

type RoleCall = {
  name: string;
  usage: string;
  summary: string;
  role: Role;
  functionName: 'pause' | 'unpause' | 'veto';
  /** The past tense for the report: "Paused", "Vetoed the settlement of". */
  done: string;
};

/** A call only one role may make: simulated first (a refusal explained), then sent and waited for. */
function roleCommand(call: RoleCall): VaultCommand {
  return {
    name: call.name,
    usage: call.usage,
    summary: call.summary,
    async run(context, { positionals }) {
      const args = callArgs(call, positionals);
      const { config, out } = context;
      const escrow = escrowAddress(config);
      const chain = chainOf(context);
      const status = await readStatus(chain, escrow);
      const data = encodeFunctionData({ abi: predictionEscrowAbi, functionName: call.functionName, args });
      const key = keyOf(config, call.role);
      if (!key) {
        throw new UsageError(
          `${KEY_SETTING[call.role]} is not set. ${call.functionName} is the ${call.role}'s call (${roleHolder(status, call.role)}): set its key, or send it from that account (from a Safe: a transaction to ${escrow} with data ${data}).`,
        );
      }
      const wallet = createChainWallet(config.chain, key).extend(publicActions);
      const signer = wallet.account.address;
      try {
        await wallet.simulateContract({
          address: escrow,
          abi: predictionEscrowAbi,
          functionName: call.functionName,
          args,
          account: wallet.account,
        });
      } catch (error) {
        const revert = decodeRevert(error);
        if (!revert) throw error;
        throw new RefusedError(await explainRevert(revert, { call, status, signer, chain, args }));
      }
      const hash = await wallet.sendTransaction({
        to: escrow,
        data,
        account: wallet.account,
        chain: wallet.chain,
      });
      const receipt = await wallet.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success')
        throw new RefusedError(
          `${call.functionName} reverted on chain (transaction ${hash}, block ${receipt.blockNumber}).`,
        );
      const subject = call.functionName === 'veto' ? `market ${args[0]} in` : '';
      out(
        `${call.done} ${subject ? `${subject} ` : ''}PredictionEscrow ${escrow} as the ${call.role} ${signer} (transaction ${hash}, block ${receipt.blockNumber}).`,
      );
      out(
        json({
          action: call.functionName,
          escrowAddress: escrow,
          ...(call.functionName === 'veto' ? { marketKey: args[0] } : {}),
          from: signer,
          transactionHash: hash,
          blockNumber: receipt.blockNumber,
        }),
      );
    },
  };
}

function callArgs(call: RoleCall, positionals: string[]): readonly [] | readonly [Hex] {
  if (call.functionName !== 'veto') {
    if (positionals.length > 0) throw new UsageError(`${call.name} takes no arguments.`);
    return [];
  }
  const [key, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`${call.name} takes one market key.`);
  if (!key || !isHex(key) || key.length !== 66)
    throw new UsageError(
      "Give the market's escrow key: 0x and 64 hex digits (PredictionEscrow.marketKey(id, closesAt)).",
    );
  return [key];
}

/** The address that holds `role` (the admin, the guardian). */
const roleHolder = (status: EscrowStatus, role: Role) => (role === 'admin' ? status.owner : status.guardian);

/** " (the escrow's operator)": what `address` is to the escrow, for a refusal's message. */
function roleOfAddress(status: EscrowStatus, address: Address): string {
  const roles = [
    status.owner === address && 'admin',
    status.operator === address && 'operator',
    status.guardian === address && 'guardian',
    status.treasury === address && 'treasury',
  ].filter(Boolean);
  return roles.length > 0 ? `the escrow's ${roles.join(' and ')}` : 'no role in this escrow';
}

const MARKET_STATES = ['None', 'Open', 'Settled', 'Refunding'] as const;

async function explainRevert(
  revert: DecodedRevert,
  context: {
    call: RoleCall;
    status: EscrowStatus;
    signer: Address;
    chain: PublicClient;
    args: readonly [] | readonly [Hex];
  },
): Promise<string> {
  const { call, status, signer } = context;
  const keyIs = `${KEY_SETTING[call.role]} is the key of ${signer} (${roleOfAddress(status, signer)})`;
  const because = (text: string) => `${revert.errorName}: ${text}`;
  switch (revert.errorName) {
    case 'NotGuardian':
      return because(
        call.functionName === 'pause'
          ? `pause is the guardian's call (${status.guardian}) or the admin's (${status.owner}); ${keyIs}`
          : `${call.functionName} is the guardian's call (${status.guardian}); ${keyIs}`,
      );
    case 'OwnableUnauthorizedAccount':
      return because(`${call.functionName} is the admin's call (${status.owner}); ${keyIs}`);
    case 'EnforcedPause':
      return because('the escrow is already paused');
    case 'ExpectedPause':
      return because('the escrow is not paused');
    case 'NotVetoable': {
      const [market] = context.args;
      if (!market) break;
      const [, , claimableAt, state] = await context.chain.readContract({
        address: status.address,
        abi: predictionEscrowAbi,
        functionName: 'markets',
        args: [market],
      });
      const why: Record<(typeof MARKET_STATES)[number], string> = {
        None: 'no deposit was ever made under that key (is it the key, not the id?)',
        Open: 'it is not settled',
        Settled: `its payouts opened at ${new Date(claimableAt * 1000).toISOString()}: too late to veto`,
        Refunding: 'it is refunding already (voided, vetoed or past its escape delay)',
      };
      return because(
        `market ${market} has no settlement waiting to pay out: ${why[MARKET_STATES[state] ?? 'None']}`,
      );
    }
  }
  return because(`the escrow refused ${call.functionName}: ${formatRevert(revert)}`);
}
