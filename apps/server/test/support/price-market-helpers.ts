import { CreateMarketResponseSchema } from '@pm/core/contract/markets';
import type { PaymentIntent } from '@pm/core/intent';
import { type PriceMarketTerms, priceMarketContentHash } from '@pm/core/price-market';
import { type Hash, parseEther } from 'viem';
import type { marketHelpers, PayOverrides } from './market-helpers.ts';
import type { TestApp } from './test-app.ts';

// Price Oracle markets (issue 19) paid for and posted for real: the intent commits to
// priceMarketContentHash(terms), as the web's create dialog does.

export type PriceCreateFields = PriceMarketTerms & { prediction: 'YES' | 'NO' };

export function priceMarketHelpers(t: TestApp, m: ReturnType<typeof marketHelpers>) {
  const defaults: PriceCreateFields = {
    targetSymbol: 'BTC',
    comparisonType: 'above',
    targetPrice: '100000',
    duration: 'hourly',
    prediction: 'YES',
  };

  /** Sets a coin's simulated price through the dev control, which samples it at once. */
  async function setPrice(symbol: string, usd: string) {
    const response = await t.app.inject({ method: 'POST', url: '/api/dev/price', payload: { symbol, usd } });
    if (response.statusCode !== 200)
      throw new Error(`dev price answered ${response.statusCode}: ${response.body}`);
  }

  async function postCreatePrice(
    fields: Partial<PriceCreateFields> = {},
    options: {
      player?: number;
      amountWei?: bigint;
      pay?: PayOverrides;
      /** The terms the payment commits to, when a test wants them to differ from the body's. */
      paidTerms?: Partial<PriceCreateFields>;
      body?: Record<string, unknown>;
      txHash?: Hash;
    } = {},
  ) {
    const content = { ...defaults, ...fields };
    const paid = { ...content, ...options.paidTerms };
    const amountWei = options.amountWei ?? parseEther('0.01');
    const wallet = m.player(options.player ?? 0);
    const intent: PaymentIntent = {
      kind: 'create',
      contentHash: priceMarketContentHash(paid),
      prediction: paid.prediction,
    };
    const txHash = options.txHash ?? (await m.pay(wallet, intent, amountWei, options.pay));
    const payload = {
      betType: 'price_prediction',
      ...content,
      txHash,
      creatorAddress: wallet.account.address,
      amountWei: amountWei.toString(),
      ...options.body,
    };
    const response = await t.app.inject({ method: 'POST', url: '/api/markets', payload });
    return { response, txHash, payload };
  }

  async function createPriceMarket(
    fields: Partial<PriceCreateFields> = {},
    options: { player?: number; amountWei?: bigint } = {},
  ) {
    const { response } = await postCreatePrice(fields, options);
    if (response.statusCode !== 201)
      throw new Error(`create answered ${response.statusCode}: ${response.body}`);
    return CreateMarketResponseSchema.parse(response.json());
  }

  return { setPrice, postCreatePrice, createPriceMarket };
}
