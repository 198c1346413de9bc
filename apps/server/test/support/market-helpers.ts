import { CreateMarketResponseSchema, JoinMarketResponseSchema } from '@pm/core/contract/markets';
import { encodeIntent, marketContentHash, type PaymentIntent } from '@pm/core/intent';
import { and, eq } from 'drizzle-orm';
import { createWalletClient, type Hash, http, parseEther, publicActions, toHex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from '../../src/config/dev-accounts.ts';
import { payments } from '../../src/db/schema.ts';
import type { TestApp } from './test-app.ts';
import { localChain } from './test-chain.ts';

// Real payments and real requests for market tests: each helper sends BNB to the vault with the
// intent of docs/api.md in the data, then posts to the endpoint through app.inject.

export type CreateFields = {
  description: string;
  title?: string;
  resolutionInstructions?: string;
  category: 'crypto' | 'social_media' | 'gaming' | 'politics' | 'sports';
  duration: 'hourly' | 'daily';
  prediction: 'YES' | 'NO';
};

export type PayOverrides = { to?: `0x${string}`; value?: bigint; data?: `0x${string}` };

export function marketHelpers(t: TestApp) {
  const wallets = t.chain.players;

  /** Hardhat funds 20 accounts of the dev mnemonic; #0 is the vault, #1… are players. */
  const extraWallet = (index: number) => {
    const key = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
    if (!key) throw new Error(`no key for account #${index}`);
    return createWalletClient({
      chain: localChain,
      transport: http(t.chain.rpcUrl),
      account: privateKeyToAccount(toHex(key)),
    }).extend(publicActions);
  };

  const player = (index: number) => {
    const wallet = wallets[index];
    if (!wallet) throw new Error(`no player #${index}`);
    return wallet;
  };

  async function pay(
    wallet: ReturnType<typeof extraWallet>,
    intent: PaymentIntent,
    amountWei: bigint,
    overrides: PayOverrides = {},
  ): Promise<Hash> {
    return wallet.sendTransaction({
      account: wallet.account,
      chain: wallet.chain,
      to: overrides.to ?? t.config.vault.address,
      value: overrides.value ?? amountWei,
      data: overrides.data ?? encodeIntent(intent),
    });
  }

  const defaults: CreateFields = {
    description: 'Will it rain in Lisbon tomorrow?',
    category: 'crypto',
    duration: 'hourly',
    prediction: 'YES',
  };

  /** Pays for and posts a market; `payWith` and `body` let a test break one thing at a time. */
  async function postCreate(
    fields: Partial<CreateFields> = {},
    options: {
      player?: number;
      amountWei?: bigint;
      pay?: PayOverrides;
      body?: Record<string, unknown>;
      txHash?: Hash;
    } = {},
  ) {
    const content = { ...defaults, ...fields };
    const amountWei = options.amountWei ?? parseEther('0.01');
    const wallet = player(options.player ?? 0);
    const intent: PaymentIntent = {
      kind: 'create',
      contentHash: marketContentHash(content),
      prediction: content.prediction,
    };
    const txHash = options.txHash ?? (await pay(wallet, intent, amountWei, options.pay));
    const payload = {
      ...content,
      txHash,
      creatorAddress: wallet.account.address,
      amountWei: amountWei.toString(),
      ...options.body,
    };
    const response = await t.app.inject({ method: 'POST', url: '/api/markets', payload });
    return { response, txHash, payload };
  }

  async function createMarket(
    fields: Partial<CreateFields> = {},
    options: { player?: number; amountWei?: bigint } = {},
  ) {
    const { response } = await postCreate(fields, options);
    if (response.statusCode !== 201)
      throw new Error(`create answered ${response.statusCode}: ${response.body}`);
    return CreateMarketResponseSchema.parse(response.json());
  }

  async function postJoin(
    marketId: number,
    options: {
      player?: number;
      wallet?: ReturnType<typeof extraWallet>;
      prediction?: 'YES' | 'NO';
      amountWei?: bigint;
      pay?: PayOverrides;
      body?: Record<string, unknown>;
      txHash?: Hash;
    } = {},
  ) {
    const prediction = options.prediction ?? 'YES';
    const amountWei = options.amountWei ?? parseEther('0.01');
    const wallet = options.wallet ?? player(options.player ?? 1);
    const txHash =
      options.txHash ?? (await pay(wallet, { kind: 'bet', marketId, prediction }, amountWei, options.pay));
    const payload = {
      txHash,
      userAddress: wallet.account.address,
      prediction,
      amountWei: amountWei.toString(),
      ...options.body,
    };
    const response = await t.app.inject({ method: 'POST', url: `/api/markets/${marketId}/bets`, payload });
    return { response, txHash, payload };
  }

  async function joinMarket(marketId: number, options: Parameters<typeof postJoin>[1] = {}) {
    const { response } = await postJoin(marketId, options);
    if (response.statusCode !== 201)
      throw new Error(`join answered ${response.statusCode}: ${response.body}`);
    return JoinMarketResponseSchema.parse(response.json());
  }

  async function paymentRow(txHash: string) {
    const [row] = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.chainId, t.config.chain.id), eq(payments.txHash, txHash.toLowerCase())));
    return row;
  }

  return { player, extraWallet, pay, postCreate, createMarket, postJoin, joinMarket, paymentRow };
}
