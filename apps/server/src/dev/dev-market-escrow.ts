import { CHAIN_ID, PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import type { DevFeed } from '@pm/escrow/deploy-dev-feed';
import {
  deployMarketEscrow,
  type MarketEscrowDeployed,
  type MarketEscrowSettings,
} from '@pm/escrow/deploy-market-escrow';
import type { Address } from 'viem';
import { createChainClient, createChainWallet } from '../chain/chain-client.ts';
import { type Config, loadConfig } from '../config/config.ts';
import { DEV_ESCROW_ROLES } from '../config/dev-accounts.ts';
import { marketEscrowFees } from '../escrow/market-escrow-settings.ts';
import type { DevChainStart } from './dev-chain-journal.ts';
import { DEV_ESCROW_DEPLOYMENT } from './dev-escrow.ts';

/**
 * MarketEscrow on the local chain (docs/decisions/031, 034 "Order of the work"): the roles and the
 * judged markets' limits of the dev PredictionEscrow (DEV_ESCROW_DEPLOYMENT: the dev admin, the server's
 * key as operator, the dev guardian and treasury; the largest bucket, the shortest delay).
 */
export const DEV_MARKET_ESCROW: Omit<
  MarketEscrowSettings,
  'roundFeeBps' | 'priceMarketFeeBps' | 'maxPriceAge' | 'feeds'
> = {
  admin: DEV_ESCROW_DEPLOYMENT.admin,
  operator: DEV_ESCROW_DEPLOYMENT.operator,
  guardian: DEV_ESCROW_DEPLOYMENT.guardian,
  treasury: DEV_ESCROW_DEPLOYMENT.treasury,
  settlementCapacity: DEV_ESCROW_DEPLOYMENT.settlementCapacity,
  settlementRefillPerHour: DEV_ESCROW_DEPLOYMENT.settlementRefillPerHour,
  minPayoutDelay: DEV_ESCROW_DEPLOYMENT.minPayoutDelay,
  disputeBondMin: DEV_ESCROW_DEPLOYMENT.disputeBondMin,
  disputeBondBps: DEV_ESCROW_DEPLOYMENT.disputeBondBps,
};

/** The server's settings the dev deployment takes: its fees (ORACLE_FEE_BPS, MARKET_FEE_BPS) and ORACLE_MAX_AGE_S. */
export type DevMarketEscrowConfig = Pick<Config, 'fees' | 'prices'>;

/** Each coin's dev feed proxy by coin index (PRICE_SYMBOLS' order). */
export function devFeedsInCoinOrder(feeds: ReadonlyMap<PriceSymbol, DevFeed>): Address[] {
  return PRICE_SYMBOLS.map((symbol) => {
    const feed = feeds.get(symbol);
    if (!feed) throw new Error(`no dev feed for ${symbol}`);
    return feed.proxy;
  });
}

/**
 * The dev deployment's settings: DEV_MARKET_ESCROW, the fees and price age of `config` (the server's
 * defaults unless given), and the dev feeds in coin order.
 */
export function devMarketEscrowSettings(
  feeds: ReadonlyMap<PriceSymbol, DevFeed>,
  config: DevMarketEscrowConfig = loadConfig({}),
): MarketEscrowSettings {
  return { ...DEV_MARKET_ESCROW, ...marketEscrowFees(config), feeds: devFeedsInCoinOrder(feeds) };
}

/**
 * Deploys the dev MarketEscrow on the local chain at `rpcUrl`: one transaction, from the dev admin (its
 * second on a fresh dev chain, after the PredictionEscrow, so the same address at every fresh start).
 */
export async function deployDevMarketEscrow(
  rpcUrl: string,
  feeds: ReadonlyMap<PriceSymbol, DevFeed>,
  config?: DevMarketEscrowConfig,
): Promise<MarketEscrowDeployed> {
  const chain = { id: CHAIN_ID.local, rpcUrl };
  return deployMarketEscrow(
    createChainWallet(chain, DEV_ESCROW_ROLES.admin.privateKey),
    createChainClient(chain),
    devMarketEscrowSettings(feeds, config),
  );
}

/**
 * The dev chain's MarketEscrow: on a replayed chain the one its first start deployed (found where the
 * data folder says, its code checked by startDevChain); else deployed now and written down for the
 * next start.
 */
export async function devChainMarketEscrow(
  devChain: Pick<DevChainStart, 'chain' | 'marketEscrow' | 'recordMarketEscrow'>,
  feeds: ReadonlyMap<PriceSymbol, DevFeed>,
  config?: DevMarketEscrowConfig,
): Promise<{ address: Address; blockNumber: bigint }> {
  if (devChain.marketEscrow) return devChain.marketEscrow;
  const deployed = await deployDevMarketEscrow(devChain.chain.rpcUrl, feeds, config);
  const found = { address: deployed.address, blockNumber: deployed.blockNumber };
  devChain.recordMarketEscrow(found);
  return found;
}
