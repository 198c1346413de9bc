// docs/architecture.md "Oracle rounds": the BNB/USD price comes from one of three feeds behind one interface,
// chosen by PRICE_FEED. Prices are integers scaled by 1e8 (docs/product.md §9, Chainlink's 8 decimals).

export type PriceSource = 'chainlink' | 'ticker' | 'simulated';

export type PriceReading = {
  /** USD × 1e8. */
  price: bigint;
  /** When the feed says the price was updated (Chainlink's updatedAt), not when we asked. */
  updatedAt: Date;
  /** The feed's own round id (Chainlink), or null for feeds without one. */
  roundId: string | null;
  source: PriceSource;
  /** A fallback: the last good reading, repeated because the feed did not answer this time. */
  stale: boolean;
};

/** The feed's answer at a past instant: its reading then, or why it has none (for the logs). */
export type PriceAtInstant = { found: true; reading: PriceReading } | { found: false; reason: string };

export type PriceFeed = {
  readonly source: PriceSource;
  /** One reading; rejects with a PriceFeedError when the feed has nothing usable. */
  read(): Promise<PriceReading>;
  /**
   * The feed's own round covering a past `instant` (the last one updated at or before it), if it is
   * fresh for it (within `maxAgeS`): @pm/core/feed-rounds. The round engine asks when its samples
   * missed a lock or close, so starving the sampler voids no round. Rejects with a PriceFeedError
   * only when the feed could not be asked, which the caller retries; a feed without such a round
   * answers so.
   */
  roundAt(instant: Date, maxAgeS: number): Promise<PriceAtInstant>;
};

export type PriceFeedErrorCode =
  | 'UNAVAILABLE'
  | 'TIMEOUT'
  | 'HTTP_ERROR'
  | 'BAD_RESPONSE'
  | 'NON_POSITIVE'
  | 'STALE'
  | 'ROUND_REGRESSED';

export class PriceFeedError extends Error {
  override readonly name = 'PriceFeedError';
  readonly code: PriceFeedErrorCode;
  /** STALE: when the feed says its price was updated (ops doctor tells its age). */
  readonly updatedAt: Date | undefined;

  constructor(code: PriceFeedErrorCode, message: string, options?: { cause?: unknown; updatedAt?: Date }) {
    super(message, options);
    this.code = code;
    this.updatedAt = options?.updatedAt;
  }
}
