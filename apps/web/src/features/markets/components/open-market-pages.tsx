import type { Market } from '@pm/core/contract/markets';
import { CircleAlert } from 'lucide';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { Button } from '../../../ui/button.tsx';
import { Card } from '../../../ui/card.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { Skeleton } from '../../../ui/skeleton.tsx';
import { StatusMessage } from '../../../ui/status-message.tsx';
import { type BoardFilter, useOpenMarkets } from '../api/get-markets.ts';

export type OpenPagesProps = {
  filter: BoardFilter;
  /** How many pages to show; the board raises it on scroll or with "Load more". */
  shown: number;
  onMore: (pages: number) => void;
  renderCard: (market: Market) => ReactNode;
  /** Each page's markets still taking bets, for the board's footer. */
  onActive: (page: number, count: number) => void;
  isActive: (market: Market) => boolean;
};

const WIDE = 'sm:col-span-2';

/**
 * Issue 21: the open markets a page at a time, newest first. Each page asks for the markets after
 * the `nextCursor` its page before has now, so a market arriving or leaving at the top shifts the
 * pages without repeating or hiding one. The next page loads when the last card nears the viewport
 * (an IntersectionObserver on the "Load more" row) or with the button itself (keyboard, screen
 * readers, and where observers are missing). Each page is its own plain query, as the settled list.
 */
export function OpenMarketPage(
  props: OpenPagesProps & { cursor: string | null; index: number; focus?: boolean },
) {
  const { filter, cursor, index, shown, onMore, renderCard, onActive, isActive, focus = false } = props;
  const { t } = useTranslation();
  const page = useOpenMarkets(filter, cursor);
  // Pressed "Load more": focus moves to this page's first card, not back to the top of the page.
  const [focusNext, setFocusNext] = useState(false);
  const first = useRef<HTMLLIElement>(null);
  const loaded = page.data !== undefined;
  const active = page.data?.markets.filter(isActive).length ?? 0;
  useEffect(() => {
    onActive(index, active);
    return () => onActive(index, 0);
  }, [onActive, index, active]);
  useEffect(() => {
    if (focus && loaded) first.current?.focus();
  }, [focus, loaded]);
  if (page.isPending) {
    return (
      <li aria-busy="true" className={WIDE}>
        <Skeleton className="h-56 w-full" />
      </li>
    );
  }
  if (page.isError) {
    return (
      <li className={WIDE}>
        <Card>
          <StatusMessage
            tone="error"
            icon={<Icon node={CircleAlert} />}
            action={
              <Button variant="outline" onClick={() => void page.refetch()}>
                {t('markets.retry')}
              </Button>
            }
          >
            {t('markets.loadFailed')}
          </StatusMessage>
        </Card>
      </li>
    );
  }
  const next = page.data.nextCursor;
  return (
    <>
      {page.data.markets.map((market, at) => (
        <li key={market.id} ref={at === 0 ? first : undefined} tabIndex={at === 0 && focus ? -1 : undefined}>
          {renderCard(market)}
        </li>
      ))}
      {next === null ? (
        index > 0 && (
          <li role="status" className={`${WIDE} text-center text-sm text-muted`}>
            {t('markets.end')}
          </li>
        )
      ) : index + 1 < shown ? (
        <OpenMarketPage {...props} cursor={next} index={index + 1} focus={focusNext} />
      ) : (
        <LoadMore
          onMore={(pressed) => {
            setFocusNext(pressed);
            onMore(index + 2);
          }}
        />
      )}
    </>
  );
}

/** The "Load more" row; scrolling it near the viewport presses it. */
function LoadMore({ onMore }: { onMore: (pressed: boolean) => void }) {
  const { t } = useTranslation();
  const row = useRef<HTMLLIElement>(null);
  const press = useRef(onMore);
  press.current = onMore;
  useEffect(() => {
    const target = row.current;
    if (!target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) press.current(false);
      },
      { rootMargin: '400px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, []);
  return (
    <li ref={row} className={`${WIDE} flex justify-center`}>
      <Button variant="outline" onClick={() => press.current(true)}>
        {t('markets.loadMore')}
      </Button>
    </li>
  );
}
