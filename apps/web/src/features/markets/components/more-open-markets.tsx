import type { Market } from '@pm/core/contract/markets';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { LoadFailed } from '#ui/load-failed.tsx';
import { Skeleton } from '#ui/skeleton.tsx';
import { type BoardFilter, useOpenMarkets } from '../api/get-markets.ts';

export type MoreOpenMarketsProps = {
  filter: BoardFilter;
  /** The first page's `nextCursor` as it is now. */
  cursor: string;
  renderCard: (market: Market) => ReactNode;
  isActive: (market: Market) => boolean;
  /** The markets still taking bets on the pages shown here, for the board's footer. */
  onActive: (count: number) => void;
};

type PageProps = Omit<MoreOpenMarketsProps, 'onActive'> & {
  index: number;
  shown: number;
  /** The page whose first card takes the focus once loaded (opened with the button), or -1. */
  focusIndex: number;
  onMore: (pages: number, pressed: boolean) => void;
  onActive: (index: number, count: number) => void;
};

const WIDE = 'sm:col-span-2';

/**
 * The open markets after the board's first page, a page at a time, newest first; loaded
 * only for a board with more than one page (decision 006). Each page asks for the markets after
 * the `nextCursor` its page before has now, so a market arriving or leaving at the top shifts the
 * pages without repeating or hiding one. The next page loads when the "Load more" row nears the
 * viewport (an IntersectionObserver) or with its button (keyboard, screen readers, and where
 * observers are missing). Each page is its own plain query, as the settled list (decision 006).
 */
export function MoreOpenMarkets({ onActive, ...props }: MoreOpenMarketsProps) {
  const [shown, setShown] = useState(0);
  const [focusIndex, setFocusIndex] = useState(-1);
  const [active, setActive] = useState<number[]>([]);
  const total = active.slice(0, shown).reduce((sum, count) => sum + count, 0);
  const onPageActive = useCallback(
    (index: number, count: number) =>
      setActive((before) => {
        if (before[index] === count) return before;
        const after = [...before];
        after[index] = count;
        return after;
      }),
    [],
  );
  useEffect(() => {
    onActive(total);
  }, [onActive, total]);
  useEffect(() => () => onActive(0), [onActive]);
  return (
    <OpenMarketPage
      {...props}
      index={0}
      shown={shown}
      focusIndex={focusIndex}
      onMore={(pages, pressed) => {
        setShown((before) => Math.max(before, pages));
        if (pressed) setFocusIndex(pages - 1);
      }}
      onActive={onPageActive}
    />
  );
}

function OpenMarketPage(props: PageProps) {
  if (props.index >= props.shown)
    return <LoadMore onMore={(pressed) => props.onMore(props.index + 1, pressed)} />;
  return <LoadedPage {...props} />;
}

function LoadedPage(props: PageProps) {
  const { filter, cursor, index, focusIndex, renderCard, isActive, onActive } = props;
  const { t } = useTranslation();
  const page = useOpenMarkets(filter, cursor);
  const first = useRef<HTMLLIElement>(null);
  const loaded = page.data !== undefined;
  const focus = focusIndex === index;
  const active = page.data?.markets.filter(isActive).length ?? 0;
  useEffect(() => {
    onActive(index, active);
    return () => onActive(index, 0);
  }, [onActive, index, active]);
  // Pressed "Load more": the focus moves to the first card it brought, not back to the page's top.
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
        <LoadFailed query={page}>{t('markets.loadFailed')}</LoadFailed>
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
        <li role="status" className={`${WIDE} text-center text-sm text-muted`}>
          {t('markets.end')}
        </li>
      ) : (
        <OpenMarketPage {...props} cursor={next} index={index + 1} />
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
