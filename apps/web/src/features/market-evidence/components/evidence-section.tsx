import type { EvidenceCitation, EvidencePage, MarketEvidence } from '@pm/core/contract/evidence';
import { CircleCheck, CircleX, Copy, FileSearch } from 'lucide';
import { useId } from 'react';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { formatDateTime } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';

/** The short hash shown in the list; the full one is in its title and accessible description. */
const SHORT_HASH_LENGTH = 10;

/** Pages and quotes come from the open web: links to them never pass our origin or rank them. */
const OUTSIDE_LINK = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const;

/**
 * What the judge read and quoted for its latest attempt (decision 019), so a bettor can check the
 * verdict: each quoted source (title, site, the quote, when it was fetched and the sha256 of the
 * page as received), how many pages and sites were read, the server's verification and the
 * model(s). Shown from the first attempt on: in review, settled, or after a failed attempt.
 */
export function EvidenceSection({ evidence }: { evidence: MarketEvidence }) {
  useNamespace('evidence');
  const { t } = useTranslation();
  const id = useId();
  return (
    <Card className="p-4">
      <section aria-labelledby={`${id}-title`} className="flex min-w-0 flex-col gap-3 text-sm">
        <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-muted">
          <Icon node={FileSearch} aria-hidden="true" className="size-4 text-brand" />
          {t('evidence.title')}
        </h2>
        <p className="text-xs text-muted">{t('evidence.intro', { attempt: evidence.attempt })}</p>
        <Verification evidence={evidence} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-muted">{t('evidence.pagesRead')}</dt>
          <dd className="tabular-nums">{evidence.pagesRead}</dd>
          <dt className="text-muted">{t('evidence.sitesRead')}</dt>
          <dd className="tabular-nums">{evidence.sitesRead}</dd>
          <dt className="text-muted">{t('evidence.models')}</dt>
          <dd className="break-words">{evidence.models.join(' + ')}</dd>
          <dt className="text-muted">{t('evidence.search')}</dt>
          <dd className="break-words">{evidence.searchProvider ?? t('evidence.noSearch')}</dd>
        </dl>
        <h3 id={`${id}-citations`} className="font-semibold">
          {t('evidence.citations')}
        </h3>
        {evidence.citations.length > 0 ? (
          <ul aria-labelledby={`${id}-citations`} className="flex flex-col gap-3">
            {evidence.citations.map((citation, index) => (
              // A quote may be cited twice from one page: the position keeps the keys apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: citations have no id and never reorder
              <Citation key={index} citation={citation} />
            ))}
          </ul>
        ) : (
          <p className="text-muted">{t('evidence.noCitations')}</p>
        )}
        {evidence.pages.length > 0 && (
          <details>
            <summary className="cursor-pointer font-semibold">
              {t('evidence.allPages', { count: evidence.pages.length })}
            </summary>
            <ul className="mt-2 flex flex-col gap-1 text-xs">
              {evidence.pages.map((page, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one URL may be read twice (redirects)
                <PageRow key={index} page={page} />
              ))}
            </ul>
          </details>
        )}
      </section>
    </Card>
  );
}

function Verification({ evidence }: { evidence: MarketEvidence }) {
  const { t } = useTranslation();
  const { verification } = evidence;
  if (!verification) return <p role="status">{t('evidence.pending')}</p>;
  const sites = { count: verification.distinctSites, min: verification.minSites };
  if (verification.status === 'verified') {
    return (
      <p role="status" className="flex items-start gap-2 font-semibold text-yes">
        <Icon node={CircleCheck} aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {t('evidence.verified', sites)}
      </p>
    );
  }
  return (
    <div role="status" className="flex items-start gap-2 text-no">
      <Icon node={CircleX} aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold break-words">
          {verification.reason
            ? t('evidence.failed', { reason: verification.reason })
            : t('evidence.failedNoReason')}
        </p>
        <p className="text-xs">{t('evidence.failedSites', sites)}</p>
      </div>
    </div>
  );
}

function Citation({ citation }: { citation: EvidenceCitation }) {
  const { t, language } = useTranslation();
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-lg border border-line bg-surface-2 p-3">
      <a href={citation.url} {...OUTSIDE_LINK} className="font-semibold break-words underline">
        {citation.title?.trim() || citation.url}
        <span className="sr-only"> {t('evidence.newTab')}</span>
      </a>
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
        <span className="font-medium text-fg">{citation.site}</span>
        <span className={citation.verified ? 'text-yes' : 'text-no'}>
          {citation.verified ? `✔ ${t('evidence.quoteVerified')}` : `✘ ${t('evidence.quoteUnverified')}`}
        </span>
        {citation.namedByCreator && <NamedByCreator />}
      </p>
      <blockquote
        cite={citation.url}
        className="border-l-4 border-brand/60 pl-3 break-words whitespace-pre-wrap"
      >
        {citation.quote}
      </blockquote>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted">{t('evidence.fetchedAt')}</dt>
        <dd>
          <time dateTime={citation.fetchedAt}>{formatDateTime(citation.fetchedAt, language)}</time>
        </dd>
        <dt className="text-muted">{t('evidence.hash')}</dt>
        <dd>
          <ContentHash hash={citation.contentSha256} />
        </dd>
      </dl>
    </li>
  );
}

/** The first 10 hex digits, the full sha256 in the title and the accessible description, copyable. */
function ContentHash({ hash }: { hash: string | null }) {
  const { t } = useTranslation();
  if (!hash) return <span className="text-muted">{t('evidence.noHash')}</span>;
  const full = t('evidence.hashFull', { hash });
  return (
    <span className="inline-flex items-center gap-1">
      <code title={full} aria-description={full} className="font-mono">
        {hash.slice(0, SHORT_HASH_LENGTH)}
      </code>
      <Button
        variant="ghost"
        size="icon"
        className="-my-2"
        aria-label={t('evidence.copy')}
        onClick={() =>
          void navigator.clipboard?.writeText(hash).then(() => toast.success(t('evidence.copied')))
        }
      >
        <Icon node={Copy} aria-hidden="true" className="size-4" />
      </Button>
    </span>
  );
}

/**
 * A source the market's creator chose, not one the server found; with a search
 * engine a verdict also needs a quote from a page the creator did not name.
 */
function NamedByCreator() {
  const { t } = useTranslation();
  return (
    <span
      title={t('evidence.namedByCreatorHint')}
      className="rounded border border-line px-1 text-xs text-muted"
    >
      {t('evidence.namedByCreator')}
    </span>
  );
}

function PageRow({ page }: { page: EvidencePage }) {
  const { t } = useTranslation();
  return (
    <li className="flex min-w-0 flex-wrap items-baseline gap-x-2">
      <a href={page.finalUrl} {...OUTSIDE_LINK} className="break-all underline">
        {page.title?.trim() || page.finalUrl}
        <span className="sr-only"> {t('evidence.newTab')}</span>
      </a>
      <span className="text-muted">{page.site}</span>
      {page.namedByCreator && <NamedByCreator />}
      {page.error ? (
        <span className="text-no">{t('evidence.pageError', { error: page.error })}</span>
      ) : (
        page.httpStatus !== null && (
          <span className="text-muted">{t('evidence.httpStatus', { status: page.httpStatus })}</span>
        )
      )}
      {page.contentSha256 && <ContentHash hash={page.contentSha256} />}
    </li>
  );
}
