import { type EvidenceCheck, verifyEvidence } from '@pm/core/evidence-verification';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../chain/clock.ts';
import type { Db } from '../db/client.ts';
import type { EscrowTarget } from '../escrow/escrow-target.ts';
import type { EvidenceBundle, EvidenceGatherer } from '../evidence/evidence-types.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { publish } from '../realtime/outbox-repository.ts';
import type { MarketResolver } from '../resolution/ai-resolver.ts';
import { decideResolution } from '../resolution/resolution-decision.ts';
import type { ResolverAnswer } from '../resolution/resolver-answer.ts';
import { type PromptPassage, readsEvidence } from '../resolution/resolver-prompt.ts';
import {
  type EvidenceCitationRecord,
  type EvidenceVerdictRecord,
  saveEvidenceAttempt,
} from './evidence-repository.ts';
import { recordFailedAttempt } from './record-failed-attempt.ts';
import { recordResolutionEvent } from './resolution-events-repository.ts';
import { proposeVerdict } from './review-window.ts';
import { settleMarket } from './settle-market.ts';
import { type ClaimedMarket, countFlag } from './settlement-repository.ts';

// One judgement of one claimed market (docs/architecture.md "Markets", docs/decisions/019).
// v1/v2 markets: the model alone, as they were created. v3 markets: the evidence is gathered first,
// outside any transaction and within a time budget; every model of the market judges the same
// passages; each YES/NO is verified against the pages read (core's verifyEvidence); only verified,
// agreeing verdicts are proposed (or settled). Verified verdicts that disagree go to an operator.
// Anything else is a failed attempt: retried with backoff, voided and refunded in the end.

export type JudgeDeps = {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  resolver: MarketResolver;
  /** Null: no gatherer on this server; v3 markets are judged on no pages and so never settle by AI. */
  gatherer: EvidenceGatherer | null;
  minConfidence: number;
  /** EVIDENCE_MIN_SOURCES: distinct sites the verified quotes must come from. */
  minSources: number;
  /** A gathering that takes longer is abandoned and counts as a failed attempt. */
  gatherTimeoutMs: number;
  maxAttempts: number;
  feeBps: number;
  reviewWindowS: number;
  /** Counts each market settled (bnbpredict_resolutions_total), once committed. */
  metrics?: Pick<Metrics, 'countResolution'>;
  /** The server's escrow: markets whose stakes are on it settle there too (none: no escrow). */
  escrow?: EscrowTarget | null;
};

/** The market's models: one, or several comma-separated for a second opinion (decision 019). */
export function modelsOf(resolverModel: string): string[] {
  return resolverModel
    .split(',')
    .map((model) => model.trim())
    .filter(Boolean);
}

type Settleable = { result: 'YES' | 'NO'; answer: ResolverAnswer; sources: string[] };

type Judgement =
  | { kind: 'settle'; verdict: Settleable; model: string }
  | { kind: 'disagree'; verdict: Settleable; model: string; detail: string }
  | { kind: 'retry'; reason: string };

export async function judgeMarket(deps: JudgeDeps, market: ClaimedMarket): Promise<void> {
  const judgement = readsEvidence(market.resolver_prompt_version)
    ? await judgeOnEvidence(deps, market)
    : await judgeAlone(deps, market);
  await applyJudgement(deps, market, judgement);
}

/** v1/v2: the model judges the market's text alone (docs/decisions/009). */
async function judgeAlone(deps: JudgeDeps, market: ClaimedMarket): Promise<Judgement> {
  const model = market.resolver_model;
  try {
    const answer = await deps.resolver.resolve({
      ...questionOf(market),
      model,
      promptVersion: market.resolver_prompt_version,
      now: deps.clock.now(),
    });
    const decision = decideResolution(answer, deps.minConfidence);
    if (decision.kind === 'retry') return decision;
    return { kind: 'settle', model, verdict: { result: decision.result, answer, sources: answer.sources } };
  } catch (error) {
    deps.logger.warn({ err: error, marketId: market.id }, 'market resolver failed');
    return { kind: 'retry', reason: messageOf(error) };
  }
}

async function judgeOnEvidence(deps: JudgeDeps, market: ClaimedMarket): Promise<Judgement> {
  const attempt = market.resolution_attempts + 1;
  const now = deps.clock.now();
  let bundle: EvidenceBundle;
  try {
    bundle = deps.gatherer
      ? await withTimeout(deps.gatherer.gather({ ...questionOf(market), now }), deps.gatherTimeoutMs)
      : { searchProvider: null, queries: [], pages: [], passages: [] };
  } catch (error) {
    deps.logger.warn({ err: error, marketId: market.id }, 'evidence gathering failed');
    return { kind: 'retry', reason: `The evidence could not be gathered: ${messageOf(error)}` };
  }
  const passages: PromptPassage[] = bundle.passages.flatMap((passage) => {
    const page = bundle.pages[passage.pageIndex];
    return page
      ? [{ url: page.finalUrl, title: page.title, fetchedAt: page.fetchedAt, text: passage.text }]
      : [];
  });
  const verifiablePages = bundle.pages.map((page) => ({ ...page, namedByCreator: page.fromCreator }));
  const models = modelsOf(market.resolver_model);
  const results = await Promise.allSettled(
    models.map((model) =>
      deps.resolver.resolve({
        ...questionOf(market),
        model,
        promptVersion: market.resolver_prompt_version,
        now: deps.clock.now(),
        passages,
      }),
    ),
  );
  const verdicts: EvidenceVerdictRecord[] = [];
  const checks: (EvidenceCheck | null)[] = [];
  let unavailable: string | null = null;
  for (const [index, result] of results.entries()) {
    const model = models[index] ?? '';
    if (result.status === 'rejected') {
      deps.logger.warn({ err: result.reason, marketId: market.id, model }, 'market resolver failed');
      unavailable ??= `${model}: ${messageOf(result.reason)}`;
      checks.push(null);
      verdicts.push({
        model,
        verdict: 'UNDECIDABLE',
        confidence: 0,
        analysis: messageOf(result.reason),
        citations: [],
        verification: null,
      });
      continue;
    }
    const answer = result.value;
    const check =
      answer.verdict === 'UNDECIDABLE'
        ? null
        : verifyEvidence({
            citations: answer.citations ?? [],
            pages: verifiablePages,
            minSites: deps.minSources,
            // With a search engine there are pages the creator did not choose, and a YES/NO needs one
            // (docs/decisions/019, "What remains").
            requireIndependentSource: bundle.searchProvider !== null,
          });
    checks.push(check);
    verdicts.push({
      model,
      verdict: answer.verdict,
      confidence: answer.confidence,
      analysis: answer.analysis,
      citations: citationRecords(answer, check),
      verification: check
        ? { status: check.status, reason: check.reason, distinctSites: check.distinctSites }
        : null,
    });
  }
  const first = verdicts[0];
  const firstCheck = checks[0] ?? null;
  const shown = new Set(bundle.passages.map((passage) => passage.pageIndex));
  await deps.db.transaction((tx) =>
    saveEvidenceAttempt(tx, {
      marketId: market.id,
      attempt,
      searchProvider: bundle.searchProvider,
      queries: bundle.queries,
      pages: bundle.pages,
      shownToJudge: shown,
      models,
      verdicts,
      citations: first?.citations ?? [],
      verification: firstCheck
        ? { status: firstCheck.status, reason: firstCheck.reason, distinctSites: firstCheck.distinctSites }
        : null,
      minSites: deps.minSources,
      at: deps.clock.now(),
    }),
  );
  if (unavailable !== null) return { kind: 'retry', reason: unavailable };
  return combine(deps, results, verdicts, checks);
}

/**
 * Every model must give a YES/NO at or above the threshold whose quotes verify; then they settle
 * if they agree, or go to an operator if they do not. The first model is the market's judge: its
 * verdict is the one proposed.
 */
function combine(
  deps: JudgeDeps,
  results: PromiseSettledResult<ResolverAnswer>[],
  verdicts: EvidenceVerdictRecord[],
  checks: (EvidenceCheck | null)[],
): Judgement {
  const settleable: (Settleable & { model: string })[] = [];
  for (const [index, result] of results.entries()) {
    if (result.status !== 'fulfilled') continue;
    const model = verdicts[index]?.model ?? '';
    const prefix = verdicts.length > 1 ? `${model}: ` : '';
    const decision = decideResolution(result.value, deps.minConfidence);
    if (decision.kind === 'retry') return { kind: 'retry', reason: `${prefix}${decision.reason}` };
    const check = checks[index];
    if (check?.status !== 'verified') {
      return {
        kind: 'retry',
        reason:
          `${prefix}UNDECIDABLE: the ${decision.result} verdict's evidence was not verified. ${check?.reason ?? ''}`.trim(),
      };
    }
    const sources = [...new Set(check.citations.map((citation) => citation.url))];
    settleable.push({ model, result: decision.result, answer: result.value, sources });
  }
  const [primary] = settleable;
  if (!primary) return { kind: 'retry', reason: 'No model answered.' };
  if (settleable.every((each) => each.result === primary.result)) {
    return { kind: 'settle', model: primary.model, verdict: primary };
  }
  const detail = `The models disagree: ${settleable
    .map((each) => `${each.model} ${each.result} (confidence ${each.answer.confidence})`)
    .join(', ')}. An operator decides.`;
  return { kind: 'disagree', model: primary.model, verdict: primary, detail };
}

async function applyJudgement(deps: JudgeDeps, market: ClaimedMarket, judgement: Judgement): Promise<void> {
  const now = deps.clock.now();
  if (judgement.kind === 'retry') {
    await recordFailedAttempt(deps, market, judgement.reason, now);
    return;
  }
  const { verdict, model } = judgement;
  const proposal = {
    result: verdict.result,
    model,
    promptVersion: market.resolver_prompt_version,
    confidence: verdict.answer.confidence,
    analysis: verdict.answer.analysis,
    sources: verdict.sources,
  };
  if (judgement.kind === 'disagree') {
    // Waits for an operator as a flagged verdict does (decision 011): flag_count > 0 keeps the
    // window from settling it; the resolution timeout voids it if no operator comes.
    const detail = judgement.detail;
    const proposed = await deps.db.transaction(async (tx) => {
      const done = await proposeVerdict(tx, {
        marketId: market.id,
        verdict: proposal,
        windowS: deps.reviewWindowS,
        now,
        // Nothing is posted on the escrow: it waits for an operator, whose verdict posts it.
        settleOnEscrow: null,
      });
      if (!done) return false;
      await countFlag(tx, market.id, now);
      await recordResolutionEvent(tx, {
        marketId: market.id,
        kind: 'flagged',
        actor: 'system',
        result: null,
        detail,
        at: now,
      });
      await publish(tx, { topic: 'markets', id: market.id });
      return true;
    });
    if (proposed) deps.logger.info({ marketId: market.id, detail }, 'verdicts disagree: operator review');
    return;
  }
  if (deps.reviewWindowS > 0) {
    const proposed = await deps.db.transaction((tx) =>
      proposeVerdict(tx, {
        marketId: market.id,
        verdict: proposal,
        windowS: deps.reviewWindowS,
        now,
        settleOnEscrow: deps.escrow ?? null,
      }),
    );
    if (proposed) deps.logger.info({ marketId: market.id, result: verdict.result }, 'verdict proposed');
    return;
  }
  const summary = await deps.db.transaction((tx) =>
    settleMarket(tx, {
      marketId: market.id,
      outcome: verdict.result,
      verdict: {
        analysis: verdict.answer.analysis,
        confidence: verdict.answer.confidence,
        sources: verdict.sources,
      },
      feeBps: deps.feeBps,
      now,
      from: ['settling'],
      actor: model,
      escrow: deps.escrow ?? null,
      detail: `Settled at once (no review window). Confidence ${verdict.answer.confidence}. ${verdict.answer.analysis}`,
    }),
  );
  if (summary) {
    deps.metrics?.countResolution(summary.outcome);
    deps.logger.info(
      { ...summary, poolWei: String(summary.poolWei), feeWei: String(summary.feeWei) },
      'market settled',
    );
  }
}

function citationRecords(answer: ResolverAnswer, check: EvidenceCheck | null): EvidenceCitationRecord[] {
  const citations = answer.citations ?? [];
  return citations.map((citation, index) => {
    const checked = check?.citations[index];
    return {
      url: citation.url,
      quote: citation.quote,
      position: checked?.pageIndex ?? null,
      verified: checked?.verified ?? false,
      problem: checked ? checked.problem : 'not checked: the verdict was UNDECIDABLE',
    };
  });
}

function questionOf(market: ClaimedMarket) {
  return {
    title: market.title,
    description: market.description,
    resolutionInstructions: market.resolution_instructions,
    deadline: market.deadline,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class GatherTimeoutError extends Error {
  override name = 'GatherTimeoutError';
}

/** The gatherer bounds each page; this bounds the whole attempt, so a lease always outlives it. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatherTimeoutError(`no evidence within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
