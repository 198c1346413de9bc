import type { Round } from '@pm/core/contract/oracle';
import { useTranslation } from '../../../i18n/use-translation.ts';

const KNOWN_SOURCES = ['chainlink', 'ticker', 'simulated'] as const;

/**
 * Which feed readings decided a round (issue 11; DESIGN "Oracle rounds"): the feed, and for the
 * lock and the close its round id and the time of the reading, so anyone can check them.
 * Nothing before the lock reading exists.
 */
export function FeedReadings({ round }: { round: Round }) {
  const { t, language } = useTranslation();
  if (!round.lockFeedRoundId && !round.closeFeedRoundId) return null;
  const source = KNOWN_SOURCES.find((known) => known === round.priceSource);
  const time = (iso: string | null) =>
    iso === null ? null : (
      <time dateTime={iso}>
        {new Date(iso).toLocaleTimeString(language, {
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        })}
      </time>
    );
  const reading = (label: string, id: string | null, at: string | null) =>
    id === null ? null : (
      <>
        <dt className="text-muted">{label}</dt>
        <dd className="min-w-0 break-all tabular-nums">
          {t('oracle.feed.reading', { id })} · {time(at)}
        </dd>
      </>
    );
  return (
    <dl aria-label={t('oracle.feed.title')} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
      <dt className="text-muted">{t('oracle.feed.source')}</dt>
      <dd>{source ? t(`oracle.source.${source}`) : (round.priceSource ?? '—')}</dd>
      {reading(t('oracle.feed.lock'), round.lockFeedRoundId, round.lockPriceAt)}
      {reading(t('oracle.feed.close'), round.closeFeedRoundId, round.closePriceAt)}
    </dl>
  );
}
