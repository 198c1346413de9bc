import { z } from 'zod';

// What the resolver model answers (docs/architecture.md "Markets"): a verdict, a confidence, an analysis and its
// sources. Anything that does not fit the schema counts as UNDECIDABLE: a model's malformed output
// must never settle a market.

export type ResolverAnswer = {
  verdict: 'YES' | 'NO' | 'UNDECIDABLE';
  /** 0–100. */
  confidence: number;
  analysis: string;
  sources: string[];
};

const MAX_ANALYSIS = 4000;
const MAX_SOURCES = 25;
const MAX_SOURCE = 500;

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

/** An answer that decides nothing, with the reason it is one. */
export function undecidable(reason: string): ResolverAnswer {
  return { verdict: 'UNDECIDABLE', confidence: 0, analysis: reason, sources: [] };
}

/** The model's message content (JSON text) → an answer; anything off-schema is UNDECIDABLE. */
export function parseResolverAnswer(content: string): ResolverAnswer {
  let value: unknown;
  try {
    // Some local servers wrap JSON output in a Markdown fence even in JSON mode.
    value = JSON.parse(stripCodeFence(content));
  } catch {
    return undecidable('The resolver answered with text that is not JSON.');
  }
  const parsed = AnswerSchema.safeParse(value);
  if (!parsed.success) return undecidable('The resolver answer did not match the verdict schema.');
  return parsed.data;
}

function stripCodeFence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}
