import { z } from 'zod';

// One request to an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp),
// shared by the judge (ai-resolver.ts) and the question analyzer (market-analyzer.ts): bounded in
// time and in bytes, with the HTTP failures that mean "try later" told apart from answers that
// are merely unusable.

export type ChatSettings = {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
};

/** The endpoint could not be asked (HTTP error, timeout, network): a failed attempt, try later. */
export class ResolverUnavailableError extends Error {
  override name = 'ResolverUnavailableError';
  readonly code = 'RESOLVER_UNAVAILABLE';
}

/**
 * A verdict is a few kB (analysis ≤ 4000 characters, ≤ 25 citations). A compromised or broken
 * endpoint must not make us buffer without bound: the timeout limits how long, this how much.
 */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/** Tokens the completion reports (`usage`), when the endpoint reports them. */
export type TokenUsage = { promptTokens: number; completionTokens: number };

/** The message content, or why there is none to read. */
export type ChatAnswer =
  | { ok: true; content: string; usage?: TokenUsage }
  | { ok: false; problem: string; usage?: TokenUsage };

export type ChatRequest = {
  model: string;
  system: string;
  user: string;
  /** OpenAI structured output (`json_schema`, strict). */
  responseFormat: unknown;
};

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
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
    })
    .nullish()
    .catch(null),
});

/** Sends one request at temperature 0; throws ResolverUnavailableError when it could not be asked. */
export async function requestChatCompletion(
  settings: ChatSettings,
  request: ChatRequest,
): Promise<ChatAnswer> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const body = {
    model: request.model,
    temperature: 0,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    response_format: request.responseFormat,
  };
  let text: string;
  // Covers both tries and the body too: a server that stalls mid-answer times out the same way.
  const signal = AbortSignal.timeout(settings.timeoutMs);
  const send = () =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
  try {
    // A pooled keep-alive socket the server has just closed fails before any answer (ECONNRESET):
    // the request never reached the model, so it is sent once more on a fresh connection.
    const response = await send().catch((error: unknown) => {
      if (signal.aborted || !isStaleSocket(error)) throw error;
      return send();
    });
    text = await readTextCapped(response, MAX_RESPONSE_BYTES);
    if (!response.ok) {
      throw new ResolverUnavailableError(`HTTP ${response.status} from the resolver: ${text.slice(0, 200)}`);
    }
  } catch (error) {
    if (error instanceof ResolverUnavailableError) throw error;
    if (error instanceof ResponseTooLargeError) {
      return { ok: false, problem: `The resolver answered with more than ${MAX_RESPONSE_BYTES} bytes.` };
    }
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new ResolverUnavailableError(
      timedOut ? `no answer within ${settings.timeoutMs} ms` : 'the resolver could not be reached',
      { cause: error },
    );
  }
  return readCompletion(text);
}

function isStaleSocket(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? cause.code : undefined;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
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

function readCompletion(text: string): ChatAnswer {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'The resolver answered with a body that is not JSON.' };
  }
  const completion = CompletionSchema.safeParse(envelope);
  if (!completion.success) return { ok: false, problem: 'The resolver answer is not a chat completion.' };
  const { usage } = completion.data;
  const counted = usage
    ? { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } }
    : {};
  const message = completion.data.choices[0]?.message;
  if (message?.refusal) {
    return { ok: false, problem: `The resolver refused: ${message.refusal.slice(0, 500)}`, ...counted };
  }
  if (!message?.content) return { ok: false, problem: 'The resolver answered with no content.', ...counted };
  return { ok: true, content: message.content, ...counted };
}
