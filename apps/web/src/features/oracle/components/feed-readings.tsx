import type { Round } from '@pm/core/contract/oracle';
import { useTranslation } from '#i18n/use-translation.ts';

const KNOWN_SOURCES = ['chainlink', 'ticker', 'simulated'] as const;

/**
 * Which feed reading set a price (docs/architecture.md "Oracle rounds"): the feed, its round id and
 * the time of the reading, so anyone can check it. Nothing when the round has no such reading.
 */
export function FeedReading({ round, reading }: { round: Round; reading: 'lock' | 'close' }) {
  const { t, language } = useTranslation();
  const id = reading === 'lock' ? round.lockFeedRoundId : round.closeFeedRoundId;
  const at = reading === 'lock' ? round.lockPriceAt : round.closePriceAt;
  if (id === null) return null;
  const source = KNOWN_SOURCES.find((known) => known === round.priceSource);
  return (
    <span data-reading={reading} className="block break-all text-xs font-normal text-muted">
      {source ? `${t(`oracle.source.${source}`)} · ` : ''}
      {t('oracle.round.feedRound', { id })}
      {at && (
        <>
          {' · '}
          <time dateTime={at}>
            {new Date(at).toLocaleTimeString(language, {
              hour: '2-digit',
              minute: '2-digit',
              second: '2-digit',
            })}
          </time>
        </>
      )}
    </span>
  );
}
