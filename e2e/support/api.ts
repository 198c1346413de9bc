import { normalizeAddress } from '@pm/core/address';
import { ClaimResponseSchema } from '@pm/core/contract/claims';
import { ConfigResponseSchema } from '@pm/core/contract/config';
import {
  CreateMarketResponseSchema,
  JoinMarketResponseSchema,
  ListMarketsResponseSchema,
  MarketDetailResponseSchema,
} from '@pm/core/contract/markets';
import { PlaceOracleBetResponseSchema } from '@pm/core/contract/oracle';
import { encodeIntent, marketContentHash } from '@pm/core/intent';
import { type PriceMarketTerms, priceMarketContentHash } from '@pm/core/price-market';
import { createWalletClient, defineChain, http } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type * as z from 'zod/mini';
import { baseUrl, rpcUrl } from './fixtures.ts';

// Server-side moves for e2e tests that need a world to look at (a settled market, a winner):
// real payments from unlocked Hardhat dev accounts, then the real API. What the user does is
// still driven through the browser in the tests themselves.

const MNEMONIC = 'test test test test test test test test test test test junk';

/** Address of Hardhat dev account #index (funded, unlocked on the node). */
export function devAddress(index: number): `0x${string}` {
  return mnemonicToAccount(MNEMONIC, { addressIndex: index }).address;
}

async function pay(from: `0x${string}`, value: bigint, data: `0x${string}`): Promise<`0x${string}`> {
  const rpc = rpcUrl();
  const chain = defineChain({
    id: 31337,
    name: 'Local',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });
  const config = ConfigResponseSchema.parse(await getJson('/api/config'));
  const wallet = createWalletClient({ account: from, chain, transport: http(rpc) });
  return wallet.sendTransaction({ to: normalizeAddress(config.vaultAddress), value, data });
}

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(`${baseUrl()}${path}`);
  return response.json();
}

async function post<T extends z.ZodMiniType>(path: string, body: unknown, schema: T): Promise<z.infer<T>> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status === 202) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return schema.parse(json);
  }
  throw new Error(`${path} stayed pending`);
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
  const content = {
    category: input.category ?? 'crypto',
    duration: 'hourly' as const,
    description: input.description,
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.resolutionInstructions === undefined
      ? {}
      : { resolutionInstructions: input.resolutionInstructions }),
  };
  const txHash = await pay(
    input.from,
    input.amountWei,
    encodeIntent({ kind: 'create', contentHash: marketContentHash(content), prediction: input.prediction }),
  );
  return post(
    '/api/markets',
    {
      ...content,
      txHash,
      creatorAddress: input.from,
      prediction: input.prediction,
      amountWei: input.amountWei.toString(),
    },
    CreateMarketResponseSchema,
  );
}

/** A Price Oracle market (issue 19), paid for from `from`: the intent commits to its terms. */
export async function createPriceMarketViaApi(
  input: PriceMarketTerms & { from: `0x${string}`; prediction: 'YES' | 'NO'; amountWei: bigint },
) {
  const { from, prediction, amountWei, ...terms } = input;
  const txHash = await pay(
    from,
    amountWei,
    encodeIntent({ kind: 'create', contentHash: priceMarketContentHash(terms), prediction }),
  );
  return post(
    '/api/markets',
    {
      betType: 'price_prediction',
      ...terms,
      txHash,
      creatorAddress: from,
      prediction,
      amountWei: amountWei.toString(),
    },
    CreateMarketResponseSchema,
  );
}

export async function joinMarketViaApi(input: {
  marketId: number;
  from: `0x${string}`;
  prediction: 'YES' | 'NO';
  amountWei: bigint;
}) {
  const txHash = await pay(
    input.from,
    input.amountWei,
    encodeIntent({ kind: 'bet', marketId: input.marketId, prediction: input.prediction }),
  );
  return post(
    `/api/markets/${input.marketId}/bets`,
    { txHash, userAddress: input.from, prediction: input.prediction, amountWei: input.amountWei.toString() },
    JoinMarketResponseSchema,
  );
}

export async function getMarket(id: number) {
  return MarketDetailResponseSchema.parse(await getJson(`/api/markets/${id}`));
}

/** One page of the open markets as the board asks for it (issue 21), after `cursor` when given. */
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
  const txHash = await pay(
    input.from,
    input.amountWei,
    encodeIntent({ kind: 'round', epoch: input.epoch, position: input.position }),
  );
  return post(
    '/api/oracle/bets',
    {
      epoch: input.epoch,
      position: input.position,
      amountWei: input.amountWei.toString(),
      userAddress: input.from,
      txHash,
    },
    PlaceOracleBetResponseSchema,
  );
}
