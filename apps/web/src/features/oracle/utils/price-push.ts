import type { PriceSampleMessage } from '@pm/core/contract/realtime';
import type { PriceHistoryResponse } from '@pm/core/contract/vault';

// A pushed sample (realtime `prices`, decision 015) updates the chart in place, the way the server
// would have answered had the page asked (the price itself: api/get-price.ts `priceFromSample`).

const BUCKET_S = 30;
const WINDOW_MS = 3600_000;

/**
 * The history with `sample` in it, as GET /api/prices/BNB/history would thin it (price-samples-repository.ts:
 * the last sample of each 30 s bucket of `sampledAt`, the last hour, oldest first). A sample older
 * than the newest point (out of order) changes nothing.
 */
export function addSampleToHistory(
  history: PriceHistoryResponse,
  sample: PriceSampleMessage,
): PriceHistoryResponse {
  const atMs = Date.parse(sample.sampledAt);
  const points = history.points.filter((point) => Date.parse(point.at) >= atMs - WINDOW_MS);
  const last = points.at(-1);
  if (last && Date.parse(last.at) > atMs) return history;
  const bucket = (ms: number) => Math.floor(ms / 1000 / BUCKET_S);
  if (last && bucket(Date.parse(last.at)) === bucket(atMs)) points.pop();
  points.push({ usd: sample.usd, at: sample.sampledAt });
  return { ...history, points };
}
