import type { CreateCustomMarketBody } from '@pm/core/contract/markets';
import { marketContentHash } from '@pm/core/intent';
import { creationCloseAt } from '@pm/core/market-rules';
import { depositCall } from '@pm/escrow/deposit-call';
import { type DepositTerms, marketBetTerms, marketCreateTerms, newMarketId } from '@pm/escrow/deposit-terms';
import type { FastifyBaseLogger } from 'fastify';
import { createWalletClient, defineChain, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getBlock } from 'viem/actions';
import type { Config } from '../config/config.ts';
import { DEV_PLAYERS } from '../config/dev-accounts.ts';
import type { Db } from '../db/client.ts';
import { hasAnyMarket } from './markets-repository.ts';
import type { MarketsService } from './markets-service.ts';

type DemoMarket = Omit<
  CreateCustomMarketBody,
  'txHash' | 'creatorAddress' | 'amountWei' | 'escrowId' | 'closesAt'
> & {
  player: number;
  amount: string;
  joins: Array<{ player: number; prediction: 'YES' | 'NO'; amount: string }>;
};

const DEMO_MARKETS: DemoMarket[] = [
  {
    player: 0,
    category: 'crypto',
    duration: 'daily',
    title: 'BNB above $1,000 before the deadline?',
    description: 'Will BNB/USDT trade above $1,000 on Binance spot at any moment before this market closes?',
    resolutionInstructions: 'YES if any Binance BNB/USDT spot trade printed above 1000 before the deadline.',
    prediction: 'YES',
    amount: '0.05',
    joins: [
      { player: 1, prediction: 'NO', amount: '0.03' },
      { player: 2, prediction: 'YES', amount: '0.01' },
    ],
  },
  {
    player: 1,
    category: 'sports',
    duration: 'daily',
    description: 'Will Real Madrid win their next La Liga match?\nA draw or a loss resolves NO.',
    prediction: 'NO',
    amount: '0.02',
    joins: [{ player: 0, prediction: 'YES', amount: '0.02' }],
  },
  {
    player: 2,
    category: 'gaming',
    duration: 'hourly',
    description:
      'Will a new Super Mario 64 120-star world record be verified on speedrun.com within the hour?',
    prediction: 'NO',
    amount: '0.01',
    joins: [],
  },
  {
    player: 0,
    category: 'social_media',
    duration: 'daily',
    title: '@BNBCHAIN posts more than 5 times on X today?',
    description:
      'Will the @BNBCHAIN account on X publish more than 5 posts (replies excluded) before the deadline?',
    prediction: 'YES',
    amount: '0.1',
    joins: [{ player: 2, prediction: 'NO', amount: '0.05' }],
  },
];

/**
 * Demo content for `npm start` on an empty database (DEMO_DATA=true, local chain only): a few
 * markets and joins made with REAL deposits into the escrow from the dev players (decision 026),
 * through the same service as the API. Without an escrow there is nothing to pay into: skipped. Does nothing once any market exists. Meant for one dev instance: two starting at once on an
 * empty database could both seed.
 */
export async function seedDemoMarkets(deps: {
  config: Config;
  db: Db;
  service: MarketsService;
  logger: FastifyBaseLogger;
}): Promise<void> {
  const { config, db, service, logger } = deps;
  if (!config.chain.isLocal) {
    logger.warn('DEMO_DATA pays with the public dev keys, so it runs on the local chain only; skipped');
    return;
  }
  if (await hasAnyMarket(db)) return;
  const escrow = config.escrow.address;
  if (!escrow) {
    logger.warn('DEMO_DATA creates markets by escrow deposits: no ESCROW_ADDRESS, so none are seeded');
    return;
  }

  const chain = defineChain({
    id: config.chain.id,
    name: 'Local Hardhat',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [config.chain.rpcUrl] } },
  });
  const wallets = DEV_PLAYERS.map((player) =>
    createWalletClient({
      chain,
      transport: http(config.chain.rpcUrl),
      account: privateKeyToAccount(player.privateKey),
    }),
  );
  const pay = async (player: number, terms: DepositTerms, amountWei: bigint) => {
    const wallet = wallets[player];
    if (!wallet) throw new Error(`no dev player #${player}`);
    const txHash = await wallet.sendTransaction(depositCall(escrow, terms, amountWei));
    return { txHash, address: wallet.account.address };
  };

  const reader = wallets[0];
  if (!reader) throw new Error('no dev players');
  for (const demo of DEMO_MARKETS) {
    const { player, amount, joins, ...fields } = demo;
    const amountWei = parseEther(amount);
    const escrowId = newMarketId();
    // The chain's time (the server's clock on the local chain): the deposit's block is counted from it.
    const latest = await getBlock(reader, { blockTag: 'latest' });
    const closesAt = creationCloseAt(fields.duration, Number(latest.timestamp));
    const terms = marketCreateTerms({
      escrowId,
      closesAt,
      contentHash: marketContentHash(fields),
      prediction: fields.prediction,
    });
    const { txHash, address } = await pay(player, terms, amountWei);
    const created = await service.createMarket({
      ...fields,
      txHash,
      creatorAddress: address,
      amountWei: amountWei.toString(),
      escrowId,
      closesAt,
    });
    if (created.status !== 'recorded') continue;
    const marketId = created.value.market.id;
    for (const join of joins) {
      const joinWei = parseEther(join.amount);
      const paid = await pay(join.player, marketBetTerms({ escrowId, closesAt }, join.prediction), joinWei);
      await service.joinMarket(marketId, {
        txHash: paid.txHash,
        userAddress: paid.address,
        prediction: join.prediction,
        amountWei: joinWei.toString(),
      });
    }
  }
  logger.info({ markets: DEMO_MARKETS.length }, 'demo markets created with real payments');
}
