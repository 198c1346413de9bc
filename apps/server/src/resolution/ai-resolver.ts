import { z } from 'zod';
import { parseResolverAnswer, type ResolverAnswer, undecidable } from './resolver-answer.ts';
import {
  buildUserMessage,
  type MarketText,
  SYSTEM_PROMPT,
  VERDICT_RESPONSE_FORMAT,
} from './resolver-prompt.ts';

// A client for any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp):
// DESIGN "Chosen parts", AI. One request per attempt; retries and backoff belong to the caller.

export type ResolverInput = MarketText & {
  /** The model fixed on the market at creation. */
  model: string;
  deadline: Date;
  /** Server time now, so the model knows whether the deadline has passed. */
  now: Date;
};

export type MarketResolver = { resolve(input: ResolverInput): Promise<ResolverAnswer> };

/** The endpoint could not be asked (HTTP error, timeout, network): a failed attempt, try later. */
export class ResolverUnavailableError extends Error {
  override name = 'ResolverUnavailableError';
  readonly code = 'RESOLVER_UNAVAILABLE';
}

export type AiResolverSettings = {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
};

const CompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
        }),
      }),
    )
    .min(1),
});

export function createAiResolver(settings: AiResolverSettings): MarketResolver {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    async resolve(input) {
      const body = {
        model: input.model,
        temperature: 0,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: buildUserMessage(input, { now: input.now, deadline: input.deadline }) },
        ],
        response_format: VERDICT_RESPONSE_FORMAT,
      };
      let text: string;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          // Covers the body too: a server that stalls mid-answer times out the same way.
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        text = await response.text();
        if (!response.ok) {
          throw new ResolverUnavailableError(
            `HTTP ${response.status} from the resolver: ${text.slice(0, 200)}`,
          );
        }
      } catch (error) {
        if (error instanceof ResolverUnavailableError) throw error;
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        throw new ResolverUnavailableError(
          timedOut ? `no answer within ${settings.timeoutMs} ms` : 'the resolver could not be reached',
          { cause: error },
        );
      }
      return readCompletion(text);
    },
  };
}

function readCompletion(text: string): ResolverAnswer {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return undecidable('The resolver answered with a body that is not JSON.');
  }
  const completion = CompletionSchema.safeParse(envelope);
  if (!completion.success) return undecidable('The resolver answer is not a chat completion.');
  const message = completion.data.choices[0]?.message;
  if (message?.refusal) return undecidable(`The resolver refused: ${message.refusal.slice(0, 500)}`);
  if (!message?.content) return undecidable('The resolver answered with no content.');
  return parseResolverAnswer(message.content);
}
