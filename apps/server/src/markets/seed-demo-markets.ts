import type { CreateCustomMarketBody } from '@pm/core/contract/markets';
import { encodeIntent, marketContentHash, type PaymentIntent } from '@pm/core/intent';
import type { FastifyBaseLogger } from 'fastify';
import { createWalletClient, defineChain, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Config } from '../config/config.ts';
import { DEV_PLAYERS } from '../config/dev-accounts.ts';
import type { Db } from '../db/client.ts';
import { hasAnyMarket } from './markets-repository.ts';
import type { MarketsService } from './markets-service.ts';

type DemoMarket = Omit<CreateCustomMarketBody, 'txHash' | 'creatorAddress' | 'amountWei'> & {
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
 * markets and joins made with REAL payments from the dev players, through the same service as the
 * API. Does nothing once any market exists. Meant for one dev instance: two starting at once on an
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
  const pay = async (player: number, intent: PaymentIntent, amountWei: bigint) => {
    const wallet = wallets[player];
    if (!wallet) throw new Error(`no dev player #${player}`);
    const txHash = await wallet.sendTransaction({
      to: config.vault.address,
      value: amountWei,
      data: encodeIntent(intent),
    });
    return { txHash, address: wallet.account.address };
  };

  for (const demo of DEMO_MARKETS) {
    const { player, amount, joins, ...fields } = demo;
    const amountWei = parseEther(amount);
    const intent: PaymentIntent = {
      kind: 'create',
      contentHash: marketContentHash(fields),
      prediction: fields.prediction,
    };
    const { txHash, address } = await pay(player, intent, amountWei);
    const created = await service.createMarket({
      ...fields,
      txHash,
      creatorAddress: address,
      amountWei: amountWei.toString(),
    });
    if (created.status !== 'recorded') continue;
    const marketId = created.value.market.id;
    for (const join of joins) {
      const joinWei = parseEther(join.amount);
      const paid = await pay(join.player, { kind: 'bet', marketId, prediction: join.prediction }, joinWei);
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
