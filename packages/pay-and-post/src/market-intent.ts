import type { Prediction } from '@pm/core/constants';
import type { CreateCustomMarketBody, CreatePriceMarketBody } from '@pm/core/contract/markets';
import { marketContentHash, type PaymentIntent } from '@pm/core/intent';
import { priceMarketContentHash } from '@pm/core/price-market';

/** What the payment and its deposit say, not the market's terms. */
type PaidFields = 'txHash' | 'creatorAddress' | 'prediction' | 'amountWei' | 'escrowId' | 'closesAt';

/** A market as its creator describes it: custom (AI-judged) text, or a Price Oracle market's terms. */
export type MarketTerms = Omit<CreateCustomMarketBody, PaidFields> | Omit<CreatePriceMarketBody, PaidFields>;

/**
 * What a market's creation commits to, as the web's create dialog computes it: the content hash of
 * the custom text (decision 008) or of the price terms (decision 020), and the creator's side.
 */
export function marketIntent(terms: MarketTerms, prediction: Prediction): PaymentIntent {
  return { kind: 'create', contentHash: marketTermsHash(terms), prediction };
}

/** The content hash a market's creation deposit carries as its terms (decisions 008 and 026). */
export function marketTermsHash(terms: MarketTerms): `0x${string}` {
  return terms.betType === 'price_prediction' ? priceMarketContentHash(terms) : marketContentHash(terms);
}
