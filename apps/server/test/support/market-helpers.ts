import type { Position } from '@pm/core/constants';
import { CreateMarketResponseSchema, JoinMarketResponseSchema } from '@pm/core/contract/markets';
import type { PaymentIntent } from '@pm/core/intent';
import { marketClosesAt, newMarketId } from '@pm/escrow/deposit-terms';
import type { ApiRequest } from '@pm/pay-and-post/api-transport';
import type { PayAndPostOptions, Posted } from '@pm/pay-and-post/pay-and-post';
import { payAndPostBet, payForBet } from '@pm/pay-and-post/pay-and-post-bet';
import { payAndPostMarket } from '@pm/pay-and-post/pay-and-post-market';
import { payAndPostOracleBet } from '@pm/pay-and-post/pay-and-post-oracle-bet';
import { payPlainTransfer } from '@pm/pay-and-post/pay-plain-transfer';
import { walletPayer } from '@pm/pay-and-post/payer';
import type { PaymentOverrides } from '@pm/pay-and-post/payment-call';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import {
  type Account,
  type Chain,
  createWalletClient,
  type Hash,
  http,
  parseEther,
  publicActions,
  type Transport,
  toHex,
  type WalletClient,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_MNEMONIC, DEV_OPERATOR } from '../../src/config/dev-accounts.ts';
import { markets, oracleRounds, payments } from '../../src/db/schema.ts';
import { escrowTargetOf } from '../../src/escrow/escrow-target.ts';
import { createAiResolver } from '../../src/resolution/ai-resolver.ts';
import { createSettlementJob } from '../../src/settlement/settlement-job.ts';
import type { AiStub } from './ai-stub.ts';
import type { TestApp } from './test-app.ts';
import { localChain } from './test-chain.ts';

// Real payments and real requests for server tests, through the shared driver (@pm/pay-and-post):
// a deposit into the escrow (market creations, bets, flag bonds, oracle rounds: decision 026), or a
// plain transfer that is no deposit (to see it refused), then a POST through app.inject.

export type CreateFields = {
  description: string;
  title?: string;
  resolutionInstructions?: string;
  category: 'crypto' | 'social_media' | 'gaming' | 'politics' | 'sports';
  duration: 'hourly' | 'daily';
  prediction: 'YES' | 'NO';
};

/** Any wallet client with an account: the test chain's players, extra dev accounts, fresh keys. */
type PayingWallet = WalletClient<Transport, Chain, Account>;

/** Who pays in a helper: player #n of the test chain, or a given wallet. */
type PaidBy = { player?: number; wallet?: PayingWallet };

/** The driver's answer as these helpers have always named it: the sent body is the `payload`. */
const withPayload = <Response>({ response, txHash, body }: Posted<Response>) => ({
  response,
  txHash,
  payload: body,
});

/** Closing and voiding, then judging: one pass of each of the two jobs that settle markets. */
export async function settleMarkets(t: TestApp) {
  for (const name of ['market-settlement', 'market-judging']) await t.job(name).run();
}

/**
 * A market judge (the settlement job) of its own on `t`'s database and clock, asking `stub`: another
 * instance's, or one with another review window than the app's.
 */
export function stubSettlementJob(
  t: TestApp,
  stub: AiStub,
  options: {
    feeBps: number;
    reviewWindowS: number;
    /** The app's escrow, its review windows ended by this read of the chain's time (none: no escrow). */
    readChainTime?: () => Promise<Date>;
  },
) {
  return createSettlementJob({
    ...(options.readChainTime
      ? { escrow: escrowTargetOf(t.config), readChainTime: options.readChainTime }
      : {}),
    db: t.db,
    clock: t.clock,
    logger: pino({ level: 'silent' }),
    resolver: createAiResolver({ baseUrl: stub.url, timeoutMs: 1000 }),
    minConfidence: 70,
    maxAttempts: 3,
    feeBps: options.feeBps,
    leaseMs: 61_000,
    resolutionTimeoutS: t.config.ai.resolutionTimeoutS,
    reviewWindowS: options.reviewWindowS,
  });
}

export function marketHelpers(t: TestApp) {
  const wallets = t.chain.players;
  // A plain account that is not the escrow (the operator key's): a transfer to it is no deposit.
  const plainAccount = DEV_OPERATOR.address;
  /** Where every stake goes (decision 026); the test app deploys one unless told not to. */
  const escrow = t.config.escrow.address;

  /** Posts through Fastify's inject: the light-my-request response comes back as it is. */
  const api = ({ path, body }: ApiRequest) => t.app.inject({ method: 'POST', url: path, payload: body });

  /** Hardhat funds 20 accounts of the dev mnemonic; #0 is the operator key's, #1… are players. */
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

  const clientsOf = (paidBy: PaidBy, defaultPlayer: number) => ({
    payer: walletPayer(paidBy.wallet ?? player(paidBy.player ?? defaultPlayer)),
    ...(escrow ? { escrow } : {}),
    api,
  });

  /**
   * A round's lock in unix seconds, as GET /api/oracle/rounds states it: with the epoch, the round's
   * escrow key. A round the server does not know gets a close the escrow still takes (ten minutes on).
   */
  async function roundLockTime(epoch: number): Promise<number> {
    const [round] = await t.db
      .select({ lockTime: oracleRounds.lockTime })
      .from(oracleRounds)
      .where(eq(oracleRounds.epoch, epoch));
    if (round) return Math.floor(round.lockTime.getTime() / 1000);
    const latest = await t.chain.publicClient.getBlock({ blockTag: 'latest' });
    return Number(latest.timestamp) + 600;
  }

  /**
   * A market's escrow id and close (what GET /api/markets/:id publishes for a deposit). A market the
   * server does not know, or one made before the escrow, gets a fresh id closing ten minutes on.
   */
  async function marketEscrow(marketId: number): Promise<{ escrowId: `0x${string}`; closesAt: number }> {
    const [market] =
      marketId <= 2_147_483_647
        ? await t.db
            .select({ escrowId: markets.escrowId, deadline: markets.deadline })
            .from(markets)
            .where(eq(markets.id, marketId))
        : [];
    if (market?.escrowId) {
      return {
        escrowId: market.escrowId as `0x${string}`,
        closesAt: marketClosesAt(market.deadline),
      };
    }
    const latest = await t.chain.publicClient.getBlock({ blockTag: 'latest' });
    return { escrowId: newMarketId(), closesAt: Number(latest.timestamp) + 600 };
  }

  /** A plain transfer to the operator key's account with `intent` (null: no data), nothing posted. */
  async function pay(
    wallet: PayingWallet,
    intent: PaymentIntent | null,
    amountWei: bigint,
    overrides: PaymentOverrides = {},
  ): Promise<Hash> {
    return payPlainTransfer(walletPayer(wallet), { to: plainAccount, intent, amountWei }, overrides);
  }

  const defaults: CreateFields = {
    description: 'Will it rain in Lisbon tomorrow?',
    category: 'crypto',
    duration: 'hourly',
    prediction: 'YES',
  };

  /** Pays for and posts a market; `pay`, `txHash` and `body` let a test break one thing at a time. */
  async function postCreate(
    fields: Partial<CreateFields> = {},
    options: PaidBy & {
      amountWei?: bigint;
      /** The creation's escrow id (default a fresh one) and close (default chain time + duration). */
      escrowId?: `0x${string}`;
      closesAt?: number;
    } & PayAndPostOptions = {},
  ) {
    const { prediction, ...terms } = { ...defaults, ...fields };
    const amountWei = options.amountWei ?? parseEther('0.01');
    const order = {
      terms,
      prediction,
      amountWei,
      ...(options.escrowId ? { escrowId: options.escrowId } : {}),
      ...(options.closesAt ? { closesAt: options.closesAt } : {}),
    };
    const posted = await payAndPostMarket(clientsOf(options, 0), order, options);
    return withPayload(posted);
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
    options: PaidBy & { prediction?: 'YES' | 'NO'; amountWei?: bigint } & PayAndPostOptions = {},
  ) {
    const bet = {
      marketId,
      ...(await marketEscrow(marketId)),
      prediction: options.prediction ?? 'YES',
      amountWei: options.amountWei ?? parseEther('0.01'),
    };
    return withPayload(await payAndPostBet(clientsOf(options, 1), bet, options));
  }

  /** Deposits a bet into the market's escrow key (player #1 unless told), nothing posted. */
  async function payBet(
    marketId: number,
    options: PaidBy & { prediction?: 'YES' | 'NO'; amountWei?: bigint } = {},
  ): Promise<Hash> {
    const bet = {
      marketId,
      ...(await marketEscrow(marketId)),
      prediction: options.prediction ?? 'YES',
      amountWei: options.amountWei ?? parseEther('0.01'),
    };
    return payForBet(clientsOf(options, 1).payer, escrow, bet);
  }

  async function joinMarket(marketId: number, options: Parameters<typeof postJoin>[1] = {}) {
    const { response } = await postJoin(marketId, options);
    if (response.statusCode !== 201)
      throw new Error(`join answered ${response.statusCode}: ${response.body}`);
    return JoinMarketResponseSchema.parse(response.json());
  }

  /**
   * Deposits into the escrow for an oracle round and posts the bet (player #1 unless told); `lockTime`
   * deposits under another close than the round's (its key then names no round of the server).
   */
  async function postOracleBet(
    epoch: number,
    options: PaidBy & { position?: Position; amountWei?: bigint; lockTime?: number } & PayAndPostOptions = {},
  ) {
    const bet = {
      epoch,
      lockTime: options.lockTime ?? (await roundLockTime(epoch)),
      position: options.position ?? 'bull',
      amountWei: options.amountWei ?? parseEther('0.01'),
    };
    return withPayload(await payAndPostOracleBet(clientsOf(options, 1), bet, options));
  }

  async function paymentRow(txHash: string) {
    const [row] = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.chainId, t.config.chain.id), eq(payments.txHash, txHash.toLowerCase())));
    return row;
  }

  return {
    api,
    player,
    extraWallet,
    pay,
    postCreate,
    createMarket,
    postJoin,
    payBet,
    joinMarket,
    postOracleBet,
    roundLockTime,
    marketEscrow,
    paymentRow,
  };
}
