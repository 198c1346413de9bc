// How long a price market waits for a price feed it cannot ask (docs/security.md "Prices"; decision 020): after its
// deadline, when no stored sample can decide it, the server asks the feed for its own round at the
// deadline; while the feed cannot be asked at all the market waits, bounded, then is voided and every
// stake refunded. The wait is ORACLE_FEED_WAIT_S, and never longer than MARKET_RESOLUTION_TIMEOUT_S,
// which bounds how long any market may stay without a verdict after its deadline. (Oracle rounds wait
// ORACLE_FEED_WAIT_S alone: a round has no resolution timeout.)

/**
 * Milliseconds after its deadline a price market waits for a feed that cannot be asked:
 * min(`feedWaitS`, `resolutionTimeoutS`) seconds (ORACLE_FEED_WAIT_S, MARKET_RESOLUTION_TIMEOUT_S).
 */
export function priceMarketFeedWaitMs(feedWaitS: number, resolutionTimeoutS: number): number {
  return Math.min(feedWaitS, resolutionTimeoutS) * 1000;
}
