import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { testMarket } from '#testing/market-test-kit.tsx';
import { startTestApi } from '#testing/test-api.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { MoreOpenMarkets } from './more-open-markets.tsx';

// The board shows one screen of open markets (its first page) and, when there are more,
// loads the next pages by cursor, on scroll or with "Load more"; a page that fails says so and
// retries; the end says so; the footer's count of markets taking bets covers the pages shown.

const market = (id: number) => testMarket({ id, title: `Open market ${id}` });
const PAGES: Record<string, { markets: ReturnType<typeof market>[]; nextCursor: string | null }> = {
  first: { markets: [market(6), market(5)], nextCursor: 'c1' },
  c1: { markets: [market(4), market(3)], nextCursor: 'c2' },
  c2: { markets: [market(2), market(1)], nextCursor: null },
};

let api: Awaited<ReturnType<typeof startTestApi>>;
const requested: string[] = [];
/** Pages that answer 500 once, then as usual. */
const failOnce = new Set<string>();
beforeAll(async () => {
  api = await startTestApi((request) => {
    const url = request.url ?? '';
    requested.push(url);
    const cursor = new URL(url, 'http://x').searchParams.get('cursor') ?? 'first';
    if (failOnce.delete(cursor)) return { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } };
    return { body: { ...PAGES[cursor], counts: { all: 6 } } };
  });
});
afterAll(() => api?.close());
beforeEach(() => {
  requested.length = 0;
  failOnce.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const WAIT = { timeout: 10_000 };

/** The board's use of the pages, after its first page (whose nextCursor is c1). */
function Board({ onActive = () => undefined }: { onActive?: (count: number) => void }) {
  return (
    <ul aria-label="Open markets">
      <MoreOpenMarkets
        filter="all"
        cursor="c1"
        renderCard={(shownMarket) => <a href={`/market/${shownMarket.id}`}>{shownMarket.title}</a>}
        isActive={(shownMarket) => shownMarket.id % 2 === 0}
        onActive={onActive}
      />
    </ul>
  );
}

const titles = (list: HTMLElement) =>
  within(list)
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('OpenMarketPage', () => {
  test('Load more brings the next page by cursor; a failed page retries; the end is said', async () => {
    const active: number[] = [];
    await renderWithApp(<Board onActive={(count) => active.push(count)} />);
    const list = await screen.findByRole('list', { name: 'Open markets' }, WAIT);
    const more = await within(list).findByRole('button', { name: 'Load more' }, WAIT);
    expect(requested).toEqual([]);

    await userEvent.click(more);
    await within(list).findByText('Open market 3', {}, WAIT);
    expect(titles(list)).toEqual(['Open market 4', 'Open market 3']);
    expect(requested).toEqual(['/api/markets?status=open&category=all&cursor=c1']);
    // Focus moved to the first market the button brought.
    expect(document.activeElement?.textContent).toBe('Open market 4');

    failOnce.add('c2');
    await userEvent.click(within(list).getByRole('button', { name: 'Load more' }));
    const retry = await within(list).findByRole('button', { name: 'Try again' }, WAIT);
    expect(within(list).getByRole('alert').textContent).toContain('Failed to load markets');
    await userEvent.click(retry);
    await within(list).findByText('Open market 1', {}, WAIT);
    expect(titles(list)).toEqual([4, 3, 2, 1].map((id) => `Open market ${id}`));
    expect(within(list).getByRole('status').textContent).toBe("That's every open market.");
    expect(within(list).queryByRole('button', { name: 'Load more' })).toBeNull();
    // Markets 4 and 2 take bets (the test's rule): the footer hears 2.
    await waitFor(() => expect(active.at(-1)).toBe(2), WAIT);
  });

  test('Scrolling the last row into view loads the next pages by itself', async () => {
    // Every observed row is at once in view, as at the foot of a short page.
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe() {
          queueMicrotask(() =>
            this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as never),
          );
        }
        disconnect() {}
      },
    );
    await renderWithApp(<Board />, { language: 'zh' });
    const list = await screen.findByRole('list', { name: 'Open markets' }, WAIT);
    await within(list).findByText('Open market 1', {}, WAIT);
    expect(titles(list)).toHaveLength(4);
    expect(within(list).getByRole('status').textContent).toBe('已显示全部进行中的市场。');
    expect(requested).toHaveLength(2);
  });
});
