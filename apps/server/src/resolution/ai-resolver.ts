import { z } from 'zod';
import { parseResolverAnswer, type ResolverAnswer, undecidable } from './resolver-answer.ts';
import {
  buildUserMessage,
  type MarketText,
  systemPromptFor,
  VERDICT_RESPONSE_FORMAT,
} from './resolver-prompt.ts';

// A client for any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp):
// docs/architecture.md "Chosen parts", AI. One request per attempt; retries and backoff belong to the caller.

export type ResolverInput = MarketText & {
  /** The model fixed on the market at creation. */
  model: string;
  /** The prompt version fixed on the market at creation: it is judged by that prompt's text. */
  promptVersion: string;
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

/**
 * A verdict is a few kB (analysis ≤ 4000 characters, ≤ 25 sources of ≤ 500). A compromised or
 * broken endpoint must not make us buffer without bound: the timeout limits how long, this how
 * much (security review F20).
 */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/** The body was larger than the cap: read no further. */
class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
}

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
      const systemPrompt = systemPromptFor(input.promptVersion);
      if (systemPrompt === undefined) {
        throw new Error(
          `No prompt ${input.promptVersion} on this server; the job should not have claimed it`,
        );
      }
      const body = {
        model: input.model,
        temperature: 0,
        messages: [
          { role: 'system', content: systemPrompt },
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
        text = await readTextCapped(response, MAX_RESPONSE_BYTES);
        if (!response.ok) {
          throw new ResolverUnavailableError(
            `HTTP ${response.status} from the resolver: ${text.slice(0, 200)}`,
          );
        }
      } catch (error) {
        if (error instanceof ResolverUnavailableError) throw error;
        if (error instanceof ResponseTooLargeError) {
          return undecidable(`The resolver answered with more than ${MAX_RESPONSE_BYTES} bytes.`);
        }
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

/**
 * The body as UTF-8 text, reading at most `maxBytes` (unlike response.text(), which buffers all of
 * it); a declared or actual length beyond the cap throws ResponseTooLargeError.
 */
async function readTextCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new ResponseTooLargeError();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ResponseTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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
