import * as z from 'zod/mini';
import { MAX_DESCRIPTION_LENGTH, MAX_INSTRUCTIONS_LENGTH, MAX_TITLE_LENGTH } from '../constants.ts';
import { DurationSchema } from './primitives.ts';

// The create dialog's Analyze button (decision 019). A file of its own so that only the code that asks
// for an analysis loads these schemas (decision 006).

/** POST /api/markets/analyze: can the question be decided from public sources by its deadline? */
export const AnalyzeMarketBodySchema = z.strictObject({
  description: z.string().check(z.maxLength(MAX_DESCRIPTION_LENGTH)),
  title: z.optional(z.string().check(z.maxLength(MAX_TITLE_LENGTH))),
  resolutionInstructions: z.optional(z.string().check(z.maxLength(MAX_INSTRUCTIONS_LENGTH))),
  duration: DurationSchema,
});
export type AnalyzeMarketBody = z.infer<typeof AnalyzeMarketBodySchema>;

export const ANALYZE_PROBLEM_KINDS = [
  'ambiguous',
  'no_source',
  'not_knowable_by_deadline',
  'already_decided',
  'other',
] as const;

export const AnalyzeMarketResponseSchema = z.object({
  /** false: no AI on this deployment, an operator decides; the rest is then empty. */
  aiConfigured: z.boolean(),
  /** The judge thinks public sources can decide it by the deadline (null without AI). */
  decidable: z.nullable(z.boolean()),
  problems: z.array(z.object({ kind: z.enum(ANALYZE_PROBLEM_KINDS), detail: z.string() })),
  /** Resolution instructions the creator can take with one click; null when none are offered. */
  suggestedInstructions: z.nullable(z.string()),
  model: z.nullable(z.string()),
});
export type AnalyzeMarketResponse = z.infer<typeof AnalyzeMarketResponseSchema>;
