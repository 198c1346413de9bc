import { CreateMarketResponseSchema } from '@pm/core/contract/markets';
import type { PriceMarketTerms } from '@pm/core/price-market';
import { marketCreateTerms } from '@pm/escrow/deposit-terms';
import { marketTermsHash } from '@pm/pay-and-post/market-intent';
import { payAndPostMarket, placeMarketOrder } from '@pm/pay-and-post/pay-and-post-market';
import { walletPayer } from '@pm/pay-and-post/payer';
import type { PaymentOverrides } from '@pm/pay-and-post/payment-call';
import { type Hash, parseEther } from 'viem';
import type { marketHelpers } from './market-helpers.ts';
import type { TestApp } from './test-app.ts';

// Price Oracle markets (docs/decisions/020) paid for and posted for real through the shared driver: the
// creation's deposit commits to priceMarketContentHash(terms), as the web's create dialog does.

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
      pay?: PaymentOverrides;
      /** The terms the payment commits to, when a test wants them to differ from the body's. */
      paidTerms?: Partial<PriceCreateFields>;
      body?: Record<string, unknown>;
      txHash?: Hash;
    } = {},
  ) {
    const { prediction, ...terms } = { ...defaults, ...fields };
    const paid = { ...defaults, ...fields, ...options.paidTerms };
    const { prediction: paidPrediction, ...paidTerms } = paid;
    const payer = walletPayer(m.player(options.player ?? 0));
    const order = await placeMarketOrder(payer, {
      terms: { betType: 'price_prediction', ...terms },
      prediction,
      amountWei: options.amountWei ?? parseEther('0.01'),
    });
    const paidDeposit = marketCreateTerms({
      escrowId: order.escrowId,
      closesAt: order.closesAt,
      contentHash: marketTermsHash({ betType: 'price_prediction', ...paidTerms }),
      prediction: paidPrediction,
    });
    const escrow = t.config.escrow.address;
    const posted = await payAndPostMarket({ payer, ...(escrow ? { escrow } : {}), api: m.api }, order, {
      ...options,
      pay: { terms: paidDeposit, ...options.pay },
    });
    return { response: posted.response, txHash: posted.txHash, payload: posted.body };
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
