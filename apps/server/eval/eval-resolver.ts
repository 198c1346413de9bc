import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyEvidence } from '@pm/core/evidence-verification';
import { loadConfig } from '../src/config/config.ts';
import { createEvidenceGatherer } from '../src/evidence/evidence-gatherer.ts';
import type { EvidenceBundle } from '../src/evidence/evidence-types.ts';
import { createAiResolver } from '../src/resolution/ai-resolver.ts';
import {
  type EvalOutcome,
  type EvalQuestion,
  formatEvalReport,
  parseEvalQuestions,
  summarizeEval,
} from '../src/resolution/eval-report.ts';
import { decideResolution } from '../src/resolution/resolution-decision.ts';
import { PROMPT_VERSION } from '../src/resolution/resolver-prompt.ts';

// npm run eval:resolver -- --file apps/server/eval/resolved-questions.jsonl [--limit N]
// The REAL pipeline of a v3 market (docs/decisions/019) over questions whose answers are known:
// the configured search engine (SEARCH_*), the SSRF-safe gatherer, every model of AI_MODELS, the
// server's quote verification and agreement rule. It sends real traffic to the search engine, the
// pages and the model, so it is never run in CI; its parser and report are unit-tested
// (src/resolution/eval-report.test.ts). "Now" is one day after each question's deadline.

const { values } = parseArgs({ options: { file: { type: 'string' }, limit: { type: 'string' } } });
if (!values.file) {
  console.error('usage: npm run eval:resolver -- --file <questions.jsonl> [--limit N]');
  process.exit(2);
}
const config = loadConfig();
if (!config.ai.baseUrl) {
  console.error('AI_BASE_URL is not set: the eval needs a model.');
  process.exit(2);
}
const questions = // npm runs this in apps/server; a relative path is the caller's (INIT_CWD).
  parseEvalQuestions(readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), values.file), 'utf8')).slice(
    0,
    values.limit ? Number(values.limit) : undefined,
  );
const resolver = createAiResolver({
  baseUrl: config.ai.baseUrl,
  apiKey: config.ai.apiKey,
  timeoutMs: config.ai.timeoutMs,
});
const { evidence } = config;

async function evaluate(question: EvalQuestion): Promise<EvalOutcome> {
  const started = Date.now();
  const now = new Date(question.deadline.getTime() + 86_400_000);
  const gatherer = createEvidenceGatherer(
    {
      search: evidence.searchProvider
        ? { provider: evidence.searchProvider, url: evidence.searchUrl, apiKey: evidence.searchApiKey }
        : null,
      maxPages: evidence.maxPages,
      maxCreatorPages: evidence.maxCreatorPages,
      allowHosts: [...evidence.allowHosts],
    },
    { now: () => new Date() },
  );
  const market = {
    title: question.title ?? question.description.slice(0, 120),
    description: question.description,
    resolutionInstructions: question.resolutionInstructions ?? null,
    deadline: question.deadline,
  };
  const base = { question, latencyMs: 0, promptTokens: 0, completionTokens: 0, pagesRead: 0 };
  let bundle: EvidenceBundle;
  try {
    bundle = await gatherer.gather({ ...market, now });
  } catch (error) {
    return {
      ...base,
      outcome: 'VOID',
      reason: `gather failed: ${String(error)}`,
      latencyMs: Date.now() - started,
    };
  }
  const pagesRead = bundle.pages.filter((page) => page.error === null).length;
  const passages = bundle.passages.flatMap((passage) => {
    const page = bundle.pages[passage.pageIndex];
    return page
      ? [{ url: page.finalUrl, title: page.title, fetchedAt: page.fetchedAt, text: passage.text }]
      : [];
  });
  let promptTokens = 0;
  let completionTokens = 0;
  const verdicts: Array<'YES' | 'NO'> = [];
  let reason: string | null = null;
  for (const model of config.ai.models) {
    let answer: Awaited<ReturnType<typeof resolver.resolve>>;
    try {
      answer = await resolver.resolve({ ...market, model, promptVersion: PROMPT_VERSION, now, passages });
    } catch (error) {
      reason ??= `${model}: ${String(error)}`;
      continue;
    }
    promptTokens += answer.usage?.promptTokens ?? 0;
    completionTokens += answer.usage?.completionTokens ?? 0;
    const decision = decideResolution(answer, config.ai.minConfidence);
    if (decision.kind === 'retry') {
      reason ??= `${model}: ${decision.reason}`;
      continue;
    }
    const check = verifyEvidence({
      citations: answer.citations ?? [],
      pages: bundle.pages.map((page) => ({ ...page, namedByCreator: page.fromCreator })),
      minSites: evidence.minSources,
      requireIndependentSource: bundle.searchProvider !== null,
    });
    if (check.status !== 'verified') {
      reason ??= `${model}: ${decision.result} not verified: ${check.reason}`;
      continue;
    }
    verdicts.push(decision.result);
  }
  const done = { ...base, promptTokens, completionTokens, pagesRead, latencyMs: Date.now() - started };
  if (reason !== null || verdicts.length === 0) return { ...done, outcome: 'VOID', reason };
  const [first] = verdicts;
  if (!first || verdicts.some((verdict) => verdict !== first)) {
    return { ...done, outcome: 'REVIEW', reason: `models disagree: ${verdicts.join(', ')}` };
  }
  return { ...done, outcome: first, reason: null };
}

const outcomes: EvalOutcome[] = [];
for (const [index, question] of questions.entries()) {
  const outcome = await evaluate(question);
  outcomes.push(outcome);
  console.error(`${index + 1}/${questions.length} ${outcome.outcome} ${question.description.slice(0, 70)}`);
}
console.log(formatEvalReport(outcomes, summarizeEval(outcomes)));
