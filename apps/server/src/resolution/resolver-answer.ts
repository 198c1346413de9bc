import { z } from 'zod';
import type { TokenUsage } from './chat-completion.ts';

// What the resolver model answers (docs/architecture.md "Markets"): a verdict, a confidence, an analysis and its
// sources. Anything that does not fit the schema counts as UNDECIDABLE: a model's malformed output
// must never settle a market.

export type ResolverAnswer = {
  verdict: 'YES' | 'NO' | 'UNDECIDABLE';
  /** 0–100. */
  confidence: number;
  analysis: string;
  sources: string[];
  /**
   * v3 (docs/decisions/019): the quotes it rests on, each from a page read for this attempt; absent
   * before v3.
   */
  citations?: Citation[];
  /** Tokens the completion reported, when it did (the eval reports them). */
  usage?: TokenUsage;
};

export type Citation = { url: string; quote: string };

const MAX_ANALYSIS = 4000;
const MAX_SOURCES = 25;
const MAX_SOURCE = 500;
const MAX_QUOTE = 1000;

// Strict: the response format forbids other fields, so an answer with any is not the schema's.
const AnswerSchema = z.strictObject({
  verdict: z.enum(['YES', 'NO', 'UNDECIDABLE']),
  confidence: z
    .number()
    .min(0)
    .max(100)
    .transform((value) => Math.round(value)),
  analysis: z.string().transform((text) => text.trim().slice(0, MAX_ANALYSIS)),
  sources: z
    .array(z.string())
    .transform((list) => list.slice(0, MAX_SOURCES).map((source) => source.trim().slice(0, MAX_SOURCE))),
});

// v3: citations instead of sources; the URLs cited are its sources.
const CitedAnswerSchema = z
  .strictObject({
    verdict: z.enum(['YES', 'NO', 'UNDECIDABLE']),
    confidence: z
      .number()
      .min(0)
      .max(100)
      .transform((value) => Math.round(value)),
    analysis: z.string().transform((text) => text.trim().slice(0, MAX_ANALYSIS)),
    citations: z.array(z.strictObject({ url: z.string(), quote: z.string() })).transform((list) =>
      list.slice(0, MAX_SOURCES).map((citation) => ({
        url: citation.url.trim().slice(0, MAX_SOURCE),
        quote: citation.quote.slice(0, MAX_QUOTE),
      })),
    ),
  })
  .transform((answer) => ({ ...answer, sources: [...new Set(answer.citations.map((c) => c.url))] }));

/** An answer that decides nothing, with the reason it is one. */
export function undecidable(reason: string): ResolverAnswer {
  return { verdict: 'UNDECIDABLE', confidence: 0, analysis: reason, sources: [] };
}

/**
 * The model's message content (JSON text) → an answer; anything off-schema is UNDECIDABLE. `cited`:
 * the v3 shape, with citations; else v1/v2's sources.
 */
export function parseResolverAnswer(content: string, shape: 'sources' | 'cited' = 'sources'): ResolverAnswer {
  let value: unknown;
  try {
    // Some local servers wrap JSON output in a Markdown fence even in JSON mode.
    value = JSON.parse(stripCodeFence(content));
  } catch {
    return undecidable('The resolver answered with text that is not JSON.');
  }
  const parsed = (shape === 'cited' ? CitedAnswerSchema : AnswerSchema).safeParse(value);
  if (!parsed.success) return undecidable('The resolver answer did not match the verdict schema.');
  return parsed.data;
}

function stripCodeFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}
