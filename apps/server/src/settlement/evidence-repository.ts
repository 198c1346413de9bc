import type { MarketEvidence } from '@pm/core/contract/evidence';
import { and, asc, desc, eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  type EvidenceCitationRecord,
  type EvidenceVerdictRecord,
  marketEvidenceAttempts,
  marketEvidencePages,
} from '../db/schema.ts';
import type { FetchedPage, SearchProviderName } from '../evidence/evidence-types.ts';

/** What a model cited and what the server verified, as stored per attempt (the judge builds them). */
export type { EvidenceCitationRecord, EvidenceVerdictRecord };

// The evidence of each judged attempt (docs/decisions/019): every page read, with the sha256
// of its body as received and its text (capped), and what the models cited and the server
// verified. Written in one transaction per attempt; an attempt judged again after a lost lease
// replaces its rows, so an attempt number always shows one consistent set.

/** Extracted text kept per page: enough to re-check any quote, bounded per row. */
const EVIDENCE_TEXT_MAX = 200_000;

type EvidenceAttemptRecord = {
  marketId: number;
  attempt: number;
  searchProvider: SearchProviderName | null;
  queries: string[];
  pages: FetchedPage[];
  /** Positions (indexes into pages) of the pages whose passages were in the prompt. */
  shownToJudge: ReadonlySet<number>;
  models: string[];
  verdicts: EvidenceVerdictRecord[];
  citations: EvidenceCitationRecord[];
  verification: { status: 'verified' | 'failed'; reason: string | null; distinctSites: number } | null;
  minSites: number;
  at: Date;
};

export async function saveEvidenceAttempt(tx: DbOrTx, record: EvidenceAttemptRecord): Promise<void> {
  const same = (table: typeof marketEvidencePages | typeof marketEvidenceAttempts) =>
    and(eq(table.marketId, record.marketId), eq(table.attempt, record.attempt));
  await tx.delete(marketEvidencePages).where(same(marketEvidencePages));
  await tx.delete(marketEvidenceAttempts).where(same(marketEvidenceAttempts));
  await tx.insert(marketEvidenceAttempts).values({
    marketId: record.marketId,
    attempt: record.attempt,
    searchProvider: record.searchProvider,
    queries: record.queries,
    models: record.models,
    verdicts: record.verdicts,
    citations: record.citations,
    verificationStatus: record.verification?.status ?? null,
    verificationReason: record.verification?.reason ?? null,
    distinctSites: record.verification?.distinctSites ?? 0,
    minSites: record.minSites,
    createdAt: record.at,
  });
  if (record.pages.length === 0) return;
  await tx.insert(marketEvidencePages).values(
    record.pages.map((page, position) => ({
      marketId: record.marketId,
      attempt: record.attempt,
      position,
      url: page.url,
      finalUrl: page.finalUrl,
      site: page.site,
      title: page.title,
      httpStatus: page.httpStatus,
      fetchedAt: page.fetchedAt,
      bytes: page.bytes,
      contentSha256: page.contentSha256,
      // NUL is the one character PostgreSQL text cannot hold.
      text: page.text.replaceAll('\u0000', '').slice(0, EVIDENCE_TEXT_MAX),
      shownToJudge: record.shownToJudge.has(position),
      error: page.error,
      fromCreator: page.fromCreator,
    })),
  );
}

/** A page row without its text: what the API and the ops CLI show. */
export type EvidencePageRow = Omit<typeof marketEvidencePages.$inferSelect, 'text'>;
const { text: _text, ...pageColumns } = getTableColumns(marketEvidencePages);
export type EvidenceAttemptRow = typeof marketEvidenceAttempts.$inferSelect;

/** The latest judged attempt of a market with its pages (not their texts), or null before any. */
export async function findLatestEvidence(
  db: DbOrTx,
  marketId: number,
): Promise<{ attempt: EvidenceAttemptRow; pages: EvidencePageRow[] } | null> {
  const [attempt] = await db
    .select()
    .from(marketEvidenceAttempts)
    .where(eq(marketEvidenceAttempts.marketId, marketId))
    .orderBy(desc(marketEvidenceAttempts.attempt))
    .limit(1);
  if (!attempt) return null;
  const pages = await db
    .select(pageColumns)
    .from(marketEvidencePages)
    .where(and(eq(marketEvidencePages.marketId, marketId), eq(marketEvidencePages.attempt, attempt.attempt)))
    .orderBy(asc(marketEvidencePages.position));
  return { attempt, pages };
}

/** The contract's evidence: pages without their text, citations with their page's site, hash and time. */
export function toMarketEvidenceDto(evidence: {
  attempt: EvidenceAttemptRow;
  pages: EvidencePageRow[];
}): MarketEvidence {
  const { attempt, pages } = evidence;
  const byPosition = new Map(pages.map((page) => [page.position, page]));
  const read = pages.filter((page) => page.error === null && page.contentSha256 !== null);
  return {
    attempt: attempt.attempt,
    searchProvider: attempt.searchProvider,
    queries: attempt.queries,
    pagesRead: read.length,
    sitesRead: new Set(read.map((page) => page.site)).size,
    pages: pages.map((page) => ({
      url: page.url,
      finalUrl: page.finalUrl,
      site: page.site,
      title: page.title,
      httpStatus: page.httpStatus,
      fetchedAt: page.fetchedAt.toISOString(),
      bytes: page.bytes,
      contentSha256: page.contentSha256,
      shownToJudge: page.shownToJudge,
      error: page.error,
      namedByCreator: page.fromCreator,
    })),
    citations: attempt.citations.map((citation) => {
      const page = citation.position === null ? undefined : byPosition.get(citation.position);
      return {
        url: citation.url,
        site: page?.site ?? hostOf(citation.url),
        title: page?.title ?? null,
        quote: citation.quote,
        fetchedAt: (page?.fetchedAt ?? attempt.createdAt).toISOString(),
        contentSha256: page?.contentSha256 ?? null,
        verified: citation.verified,
        namedByCreator: page?.fromCreator ?? false,
      };
    }),
    verification:
      attempt.verificationStatus === 'verified' || attempt.verificationStatus === 'failed'
        ? {
            status: attempt.verificationStatus,
            reason: attempt.verificationReason,
            distinctSites: attempt.distinctSites,
            minSites: attempt.minSites,
          }
        : null,
    models: attempt.models,
  };
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : '';
}
