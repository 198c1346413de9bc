import type { Prediction } from '@pm/core/constants';
import type { CreateCustomMarketBody, CreatePriceMarketBody } from '@pm/core/contract/markets';
import { marketContentHash, type PaymentIntent } from '@pm/core/intent';
import { priceMarketContentHash } from '@pm/core/price-market';

type PaidFields = 'txHash' | 'creatorAddress' | 'prediction' | 'amountWei';

/** A market as its creator describes it: custom (AI-judged) text, or a Price Oracle market's terms. */
export type MarketTerms = Omit<CreateCustomMarketBody, PaidFields> | Omit<CreatePriceMarketBody, PaidFields>;

/**
 * What a market's creation commits to, as the web's create dialog computes it: the content hash of
 * the custom text (decision 008) or of the price terms (issue 19), and the creator's side.
 */
export function marketIntent(terms: MarketTerms, prediction: Prediction): PaymentIntent {
  const contentHash =
    terms.betType === 'price_prediction' ? priceMarketContentHash(terms) : marketContentHash(terms);
  return { kind: 'create', contentHash, prediction };
}
