import { normalizeAddress } from '@pm/core/address';
import { ClaimResponseSchema } from '@pm/core/contract/claims';
import { ConfigResponseSchema } from '@pm/core/contract/config';
import {
  CreateMarketResponseSchema,
  JoinMarketResponseSchema,
  ListMarketsResponseSchema,
  MarketDetailResponseSchema,
} from '@pm/core/contract/markets';
import { PlaceOracleBetResponseSchema, RoundsResponseSchema } from '@pm/core/contract/oracle';
import type { PriceMarketTerms } from '@pm/core/price-market';
import { type FetchAnswer, fetchTransport } from '@pm/pay-and-post/fetch-transport';
import { payAndPostBet } from '@pm/pay-and-post/pay-and-post-bet';
import { payAndPostMarket } from '@pm/pay-and-post/pay-and-post-market';
import { payAndPostOracleBet } from '@pm/pay-and-post/pay-and-post-oracle-bet';
import { walletPayer } from '@pm/pay-and-post/payer';
import { createWalletClient, defineChain, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type * as z from 'zod/mini';
import { baseUrl, rpcUrl } from './fixtures.ts';

// Server-side moves for e2e tests that need a world to look at (a settled market, a winner): real
// payments from unlocked Hardhat dev accounts (every stake an escrow deposit), then the real API,
// through the shared driver (@pm/pay-and-post). What the user does is still driven through the
// browser in the tests themselves.

const MNEMONIC = 'test test test test test test test test test test test junk';

/** Address of Hardhat dev account #index (funded, unlocked on the node). */
export function devAddress(index: number): `0x${string}` {
  return mnemonicToAccount(MNEMONIC, { addressIndex: index }).address;
}

/** `from` pays (an account unlocked on the node, so no key is needed) and posts to the stack's API. */
async function clientsOf(from: `0x${string}`) {
  const rpc = rpcUrl();
  const chain = defineChain({
    id: 31337,
    name: 'Local',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });
  const config = ConfigResponseSchema.parse(await getJson('/api/config'));
  return {
    payer: walletPayer(createWalletClient({ account: from, chain, transport: http(rpc) })),
    // Every stake is a deposit into the escrow contract (decision 026).
    ...(config.escrow ? { escrow: normalizeAddress(config.escrow.address) } : {}),
    api: api(),
  };
}

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(`${baseUrl()}${path}`);
  return response.json();
}

/** POSTs to the stack, asking again while the server answers 202 (the payment is not final yet). */
const api = () => fetchTransport(baseUrl(), { whilePending: { everyMs: 500, timeoutMs: 10_000 } });

function parseAnswer<T extends z.ZodMiniType>(path: string, answer: FetchAnswer, schema: T): z.infer<T> {
  if (answer.status === 202) throw new Error(`${path} stayed pending`);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return schema.parse(answer.json);
}

async function post<T extends z.ZodMiniType>(path: string, body: Record<string, unknown>, schema: T) {
  return parseAnswer(path, await api()({ path, body }), schema);
}

export async function createMarketViaApi(input: {
  from: `0x${string}`;
  description: string;
  prediction: 'YES' | 'NO';
  amountWei: bigint;
  category?: 'crypto' | 'social_media' | 'gaming' | 'politics' | 'sports';
  title?: string;
  resolutionInstructions?: string;
}) {
  const terms = {
    category: input.category ?? 'crypto',
    duration: 'hourly' as const,
    description: input.description,
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.resolutionInstructions === undefined
      ? {}
      : { resolutionInstructions: input.resolutionInstructions }),
  };
  const order = { terms, prediction: input.prediction, amountWei: input.amountWei };
  const { response } = await payAndPostMarket(await clientsOf(input.from), order);
  return parseAnswer('/api/markets', response, CreateMarketResponseSchema);
}

/** A Price Oracle market, paid for from `from`: the intent commits to its terms. */
export async function createPriceMarketViaApi(
  input: PriceMarketTerms & { from: `0x${string}`; prediction: 'YES' | 'NO'; amountWei: bigint },
) {
  const { from, prediction, amountWei, ...terms } = input;
  const order = { terms: { betType: 'price_prediction' as const, ...terms }, prediction, amountWei };
  const { response } = await payAndPostMarket(await clientsOf(from), order);
  return parseAnswer('/api/markets', response, CreateMarketResponseSchema);
}

export async function joinMarketViaApi(input: {
  marketId: number;
  from: `0x${string}`;
  prediction: 'YES' | 'NO';
  amountWei: bigint;
}) {
  const { from, ...order } = input;
  // The deposit names the market's escrow id and close, as the API publishes them (decision 026).
  const { market } = await getMarket(order.marketId);
  if (!market.escrowId) throw new Error(`market ${order.marketId} has no escrow id`);
  const bet = { ...order, escrowId: market.escrowId as `0x${string}`, closesAt: market.closesAt };
  const { response } = await payAndPostBet(await clientsOf(from), bet);
  return parseAnswer(`/api/markets/${bet.marketId}/bets`, response, JoinMarketResponseSchema);
}

export async function getMarket(id: number) {
  return MarketDetailResponseSchema.parse(await getJson(`/api/markets/${id}`));
}

/** One page of the open markets as the board asks for it (decision 016), after `cursor` when given. */
export async function getOpenMarketsPage(cursor?: string | null) {
  const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
  return ListMarketsResponseSchema.parse(await getJson(`/api/markets?status=open&category=all${after}`));
}

/** Runs `work` for each item with at most `lanes` at once, each lane paying from its own account. */
export async function inLanes<T>(
  items: T[],
  lanes: Array<`0x${string}`>,
  work: (item: T, from: `0x${string}`) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    lanes.map(async (from) => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item, from);
      }
    }),
  );
}

export async function claimViaApi(userAddress: `0x${string}`, scope: 'markets' | 'oracle' | 'all') {
  return post('/api/claims', { userAddress, scope }, ClaimResponseSchema);
}

/** Polls until `read` answers something truthy (the server's jobs run every few seconds). */
export async function eventually<T>(
  read: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A bet on an oracle round by someone else: a real payment, then POST /api/oracle/bets. */
export async function placeOracleBetViaApi(input: {
  epoch: number;
  from: `0x${string}`;
  position: 'bull' | 'bear';
  amountWei: bigint;
}) {
  const { from, ...order } = input;
  // The round's lock names its escrow key with the epoch: read it as the web does.
  const rounds = RoundsResponseSchema.parse(await getJson('/api/oracle/rounds'));
  const round = [rounds.current, rounds.next, rounds.previous, ...rounds.recent].find(
    (each) => each?.epoch === order.epoch,
  );
  if (!round) throw new Error(`round ${order.epoch} is not shown by /api/oracle/rounds`);
  const bet = { ...order, lockTime: Date.parse(round.lockTime) / 1000 };
  const { response } = await payAndPostOracleBet(await clientsOf(from), bet);
  return parseAnswer('/api/oracle/bets', response, PlaceOracleBetResponseSchema);
}
