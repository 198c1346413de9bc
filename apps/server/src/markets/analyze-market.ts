import type { AnalyzeMarketBody, AnalyzeMarketResponse } from '@pm/core/contract/analyze';
import { marketDeadline } from '@pm/core/market-rules';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import { AppError } from '../errors/app-error.ts';
import {
  ANALYSIS_RESPONSE_FORMAT,
  ANALYZER_SYSTEM_PROMPT,
  buildAnalyzerUserMessage,
  parseAnalysis,
} from '../resolution/analyzer-prompt.ts';
import { type ChatSettings, requestChatCompletion } from '../resolution/chat-completion.ts';
import type { AnalyzeLimits } from './analyze-limits.ts';

export type AnalyzeMarketDeps = {
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Null when no AI is configured: an operator decides, there is nothing to ask. */
  ai: (ChatSettings & { model: string }) | null;
  limits: AnalyzeLimits;
};

/**
 * POST /api/markets/analyze (docs/decisions/019): asks the judge's first model whether the question
 * can be decided from public sources by the deadline it would have. Advice only: nothing is stored
 * and the creator may publish anyway.
 */
export async function analyzeMarket(
  deps: AnalyzeMarketDeps,
  body: AnalyzeMarketBody,
  clientAddress: string,
): Promise<AnalyzeMarketResponse> {
  if (!deps.ai) {
    return { aiConfigured: false, decidable: null, problems: [], suggestedInstructions: null, model: null };
  }
  if (!deps.limits.takeAddress(clientAddress)) throw new AppError('ANALYZE_RATE_LIMITED');
  if (!deps.limits.takeModelCall()) throw new AppError('ANALYZE_DAILY_LIMIT');
  const now = deps.clock.now();
  const market = {
    title: body.title ?? '',
    description: body.description,
    resolutionInstructions: body.resolutionInstructions ?? null,
  };
  let content: string;
  try {
    const answer = await requestChatCompletion(deps.ai, {
      model: deps.ai.model,
      system: ANALYZER_SYSTEM_PROMPT,
      user: buildAnalyzerUserMessage(market, { now, deadline: marketDeadline(now, body.duration) }),
      responseFormat: ANALYSIS_RESPONSE_FORMAT,
    });
    if (!answer.ok) throw new Error(answer.problem);
    content = answer.content;
  } catch (error) {
    deps.logger.warn({ err: error }, 'market analysis failed');
    throw new AppError('ANALYZE_UNAVAILABLE', undefined, { cause: error });
  }
  const analysis = parseAnalysis(content);
  if (!analysis) {
    deps.logger.warn({ content: content.slice(0, 500) }, 'market analysis off-schema');
    throw new AppError('ANALYZE_UNAVAILABLE');
  }
  return { aiConfigured: true, ...analysis, model: deps.ai.model };
}
