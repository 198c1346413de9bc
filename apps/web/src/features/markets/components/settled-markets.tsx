import type { Market } from '@pm/core/contract/markets';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { Card } from '#ui/card.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { StatusMessage } from '#ui/status-message.tsx';
import { useSettledMarketsPage } from '../api/get-markets.ts';

/**
 * Settled markets browsable from /predictions (decision 013), newest settled first, a page at a time
 * (the list endpoint's cursor), each card with its verdict badge and the AI's confidence.
 * Loaded when the Settled chip is first chosen; the board passes its card renderer in, so this
 * chunk shares no component with the board's own (docs/decisions/006: shared code fragments).
 * Each page is its own query (plain useQuery: an infinite query's observer would cost every
 * visitor of /predictions ~0.5 kB, docs/decisions/006).
 */
export function SettledMarkets({ renderCard }: { renderCard: (market: Market) => ReactNode }) {
  const { t } = useTranslation();
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  return (
    <ul aria-label={t('markets.settled.listLabel')} className="grid gap-4 sm:grid-cols-2">
      {cursors.map((cursor, index) => (
        <SettledPage
          key={cursor ?? 'first'}
          cursor={cursor}
          first={index === 0}
          last={index === cursors.length - 1}
          renderCard={renderCard}
          onMore={(next) => setCursors([...cursors, next])}
        />
      ))}
    </ul>
  );
}

function SettledPage({
  cursor,
  first,
  last,
  renderCard,
  onMore,
}: {
  cursor: string | null;
  first: boolean;
  last: boolean;
  renderCard: (market: Market) => ReactNode;
  onMore: (cursor: string) => void;
}) {
  const { t } = useTranslation();
  const page = useSettledMarketsPage(cursor);
  const wide = 'sm:col-span-2';
  if (page.isPending) {
    return (
      <li aria-busy="true" className={wide}>
        <Skeleton className="h-56 w-full" />
      </li>
    );
  }
  if (page.isError) {
    return (
      <li className={wide}>
        <LoadFailed query={page}>{t('markets.loadFailed')}</LoadFailed>
      </li>
    );
  }
  const { markets, nextCursor } = page.data;
  return (
    <>
      {first && markets.length === 0 && (
        <li className={wide}>
          <Card>
            <StatusMessage>{t('markets.settled.empty')}</StatusMessage>
          </Card>
        </li>
      )}
      {markets.map((market) => (
        <li key={market.id}>{renderCard(market)}</li>
      ))}
      {last && nextCursor && (
        <li className={`${wide} flex justify-center`}>
          <Button variant="outline" onClick={() => onMore(nextCursor)}>
            {t('markets.settled.more')}
          </Button>
        </li>
      )}
    </>
  );
}
