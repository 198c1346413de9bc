import { z } from 'zod';
import { type ChatSettings, requestChatCompletion } from '../resolution/chat-completion.ts';
import { type CheckOutcome, failed, passed } from './run-checks.ts';

// The AI endpoint answers a tiny structured request (docs/operations.md "Preflight"): the same
// chat-completions call as the judge's, with a JSON schema of one field, once per model in
// AI_MODELS, so a model name the endpoint does not serve shows before a market needs it.

const HEALTH_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: {
    name: 'health_check',
    strict: true,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['ok'],
      properties: { ok: { type: 'boolean' } },
    },
  },
} as const;

const HealthAnswerSchema = z.object({ ok: z.boolean() });

export async function checkAiModel(settings: ChatSettings, model: string): Promise<CheckOutcome> {
  const answer = await requestChatCompletion(settings, {
    model,
    system: 'You are a health check. Answer with the JSON object the response format asks for.',
    user: 'Reply {"ok": true}.',
    responseFormat: HEALTH_RESPONSE_FORMAT,
  });
  if (!answer.ok) return failed(answer.problem);
  let json: unknown;
  try {
    json = JSON.parse(answer.content);
  } catch {
    return failed('the answer is not JSON: the endpoint may not support structured output (json_schema)');
  }
  if (!HealthAnswerSchema.safeParse(json).success) {
    return failed('the answer does not follow the JSON schema it was given');
  }
  const tokens = answer.usage ? `, ${answer.usage.promptTokens + answer.usage.completionTokens} tokens` : '';
  return passed(`structured answer${tokens}`);
}
