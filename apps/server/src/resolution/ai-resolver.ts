import { type ChatSettings, requestChatCompletion } from './chat-completion.ts';
import { parseResolverAnswer, type ResolverAnswer, undecidable } from './resolver-answer.ts';
import {
  buildEvidenceUserMessage,
  buildUserMessage,
  CITED_VERDICT_RESPONSE_FORMAT,
  type MarketText,
  type PromptPassage,
  readsEvidence,
  systemPromptFor,
  VERDICT_RESPONSE_FORMAT,
} from './resolver-prompt.ts';

export { MAX_RESPONSE_BYTES, ResolverUnavailableError } from './chat-completion.ts';

// A client for any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp):
// docs/architecture.md "Chosen parts", AI. One request per attempt; retries and backoff belong to the caller.

export type ResolverInput = MarketText & {
  /** The model fixed on the market at creation (one of them, with a second opinion). */
  model: string;
  /** The prompt version fixed on the market at creation: it is judged by that prompt's text. */
  promptVersion: string;
  deadline: Date;
  /** Server time now, so the model knows whether the deadline has passed. */
  now: Date;
  /** v3 (docs/decisions/019): the ranked passages gathered for this attempt; ignored by v1/v2. */
  passages?: readonly PromptPassage[];
};

export type MarketResolver = { resolve(input: ResolverInput): Promise<ResolverAnswer> };

export type AiResolverSettings = ChatSettings;

export function createAiResolver(settings: AiResolverSettings): MarketResolver {
  return {
    async resolve(input) {
      const system = systemPromptFor(input.promptVersion);
      if (system === undefined) {
        throw new Error(
          `No prompt ${input.promptVersion} on this server; the job should not have claimed it`,
        );
      }
      const times = { now: input.now, deadline: input.deadline };
      const cited = readsEvidence(input.promptVersion);
      const answer = await requestChatCompletion(settings, {
        model: input.model,
        system,
        user: cited
          ? buildEvidenceUserMessage(input, times, input.passages ?? [])
          : buildUserMessage(input, times),
        responseFormat: cited ? CITED_VERDICT_RESPONSE_FORMAT : VERDICT_RESPONSE_FORMAT,
      });
      const usage = answer.usage ? { usage: answer.usage } : {};
      if (!answer.ok) return { ...undecidable(answer.problem), ...usage };
      return { ...parseResolverAnswer(answer.content, cited ? 'cited' : 'sources'), ...usage };
    },
  };
}
