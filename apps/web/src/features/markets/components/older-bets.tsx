import { shortenAddress } from '@pm/core/address';
import { useEffect, useRef, useState } from 'react';
import { useMarketBetsPage } from '#api/get-market-bets.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';

/**
 * A market's bets older than the first page the market page came with, newest first, a
 * page at a time with "Show more". Loaded when a visitor first asks for them; each page follows the
 * `nextCursor` its page before has now, so a new bet shifts the pages without repeating a bet.
 */
export function OlderBets({ marketId, cursor }: { marketId: number; cursor: string }) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  // The button that opened the list is gone: focus moves to the list it opened.
  useEffect(() => list.current?.focus(), []);
  return (
    <ul
      ref={list}
      tabIndex={-1}
      aria-label={t('markets.detail.olderBets')}
      className="flex flex-col gap-1 rounded-xl border border-line bg-surface p-4 text-sm"
    >
      <OlderBetsPage marketId={marketId} cursor={cursor} />
    </ul>
  );
}

function OlderBetsPage({
  marketId,
  cursor,
  focus = false,
}: {
  marketId: number;
  cursor: string;
  focus?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const page = useMarketBetsPage(marketId, cursor);
  const [more, setMore] = useState(false);
  // After "Show more", focus goes to the first bet it brought, not back to the top of the page.
  const first = useRef<HTMLLIElement>(null);
  const loaded = page.data !== undefined;
  useEffect(() => {
    if (focus && loaded) first.current?.focus();
  }, [focus, loaded]);
  if (page.isPending) {
    return (
      <li aria-busy="true">
        <Skeleton className="h-24 w-full" />
      </li>
    );
  }
  if (page.isError) {
    return (
      <li>
        <LoadFailed query={page}>{t('markets.detail.betsFailed')}</LoadFailed>
      </li>
    );
  }
  const next = page.data.nextCursor;
  return (
    <>
      {page.data.bets.map((bet, at) => (
        <li
          key={bet.id}
          ref={at === 0 ? first : undefined}
          tabIndex={at === 0 && focus ? -1 : undefined}
          className="flex flex-wrap items-center justify-between gap-2"
        >
          <span className="flex items-center gap-2 font-mono text-xs">
            {shortenAddress(bet.userAddress)}
            {bet.isCreator && <Badge tone="brand">{t('markets.detail.creator')}</Badge>}
          </span>
          <span className="flex items-center gap-3 tabular-nums">
            <span className={bet.prediction === 'YES' ? 'text-yes' : 'text-no'}>{bet.prediction}</span>
            {format.bnb(bet.amountWei)}
          </span>
        </li>
      ))}
      {next === null ? (
        <li role="status" className="pt-2 text-center text-xs text-muted">
          {t('markets.detail.betsEnd')}
        </li>
      ) : more ? (
        <OlderBetsPage marketId={marketId} cursor={next} focus />
      ) : (
        <li className="flex justify-center pt-2">
          <Button variant="outline" onClick={() => setMore(true)}>
            {t('markets.detail.moreBets')}
          </Button>
        </li>
      )}
    </>
  );
}
