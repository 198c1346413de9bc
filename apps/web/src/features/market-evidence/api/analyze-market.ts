import {
  type AnalyzeMarketBody,
  type AnalyzeMarketResponse,
  AnalyzeMarketResponseSchema,
} from '@pm/core/contract/analyze';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '#lib/api-client.ts';

/**
 * POST /api/markets/analyze (decision 019): can the judge decide this question from public sources by
 * its deadline? The problems it sees and instructions the creator may take. Nothing is stored.
 */
export function analyzeMarket(
  body: AnalyzeMarketBody,
  options: { signal?: AbortSignal } = {},
): Promise<AnalyzeMarketResponse> {
  return apiPost('/api/markets/analyze', body, AnalyzeMarketResponseSchema, options);
}

/** A mutation, not a query: each press asks again (the text changed) and spends the AI budget. */
export const useAnalyzeMarket = () =>
  useMutation({ mutationFn: (body: AnalyzeMarketBody) => analyzeMarket(body) });
