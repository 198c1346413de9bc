import type { MarketEvidence } from '@pm/core/contract/evidence';
import { cleanup, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MarketDetail } from '#features/markets/components/market-detail.tsx';
import { startMarketApi, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp } from '#testing/test-app.tsx';
import { MARKET_PARTS } from './market-parts.tsx';

// The evidence a judge read and quoted, on the market page.

let api: Awaited<ReturnType<typeof startMarketApi>>;
beforeAll(async () => {
  api = await startMarketApi();
});
afterAll(() => api?.close());
afterEach(cleanup);

/** The first render loads the lazy parts and the strings: slow on a busy machine. */
const SLOW = { timeout: 10_000 };

const HASH_A = `0123456789${'a'.repeat(54)}`;
const HASH_B = `fedcba9876${'b'.repeat(54)}`;

const evidence = (overrides: Partial<MarketEvidence> = {}): MarketEvidence => ({
  attempt: 1,
  searchProvider: 'searxng',
  queries: ['launch date'],
  pagesRead: 3,
  sitesRead: 2,
  pages: [
    {
      url: 'https://news.example.com/launch',
      finalUrl: 'https://news.example.com/launch',
      site: 'example.com',
      title: 'Launch report',
      httpStatus: 200,
      fetchedAt: '2025-06-01T11:40:00.000Z',
      bytes: 1200,
      contentSha256: HASH_A,
      shownToJudge: true,
      error: null,
      namedByCreator: false,
    },
    {
      url: 'http://10.0.0.1/',
      finalUrl: 'http://10.0.0.1/',
      site: '10.0.0.1',
      title: null,
      httpStatus: null,
      fetchedAt: '2025-06-01T11:40:00.000Z',
      bytes: 0,
      contentSha256: null,
      shownToJudge: false,
      error: 'refused address',
      namedByCreator: false,
    },
  ],
  citations: [
    {
      url: 'https://news.example.com/launch',
      site: 'example.com',
      title: 'Launch report',
      quote: 'The rocket lifted off at 09:00 UTC.',
      fetchedAt: '2025-06-01T11:40:00.000Z',
      contentSha256: HASH_A,
      verified: true,
      namedByCreator: false,
    },
    {
      url: 'https://other.example.org/story',
      site: 'example.org',
      title: null,
      quote: 'Liftoff came on schedule.',
      fetchedAt: '2025-06-01T11:41:00.000Z',
      contentSha256: HASH_B,
      verified: true,
      namedByCreator: false,
    },
  ],
  verification: { status: 'verified', reason: null, distinctSites: 2, minSites: 2 },
  models: ['gpt-4o-mini'],
  ...overrides,
});

const inReview = testMarket({
  status: 'settling',
  deadline: '2025-06-01T11:00:00.000Z',
  review: {
    result: 'YES',
    model: 'gpt-4o-mini',
    promptVersion: 'market-resolver-v2',
    confidence: 92,
    analysis: 'It launched.',
    sources: ['https://news.example.com/launch'],
    proposedAt: '2025-06-01T11:50:00.000Z',
    bondWei: null,
    endsAt: '2025-06-01T12:10:00.000Z',
    flagCount: 0,
  },
});

describe('The Evidence section', () => {
  test('lists each quoted source: title, site, the quote, when fetched and the short hash', async () => {
    api.serve(inReview, { evidence: evidence() });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    const sources = within(section).getByRole('list', { name: 'Quoted sources' });
    const items = within(sources).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const first = items[0] as HTMLElement;
    expect(within(first).getByText('example.com')).toBeVisible();
    const quote = first.querySelector('blockquote');
    expect(quote?.textContent).toBe('The rocket lifted off at 09:00 UTC.');
    expect(quote?.getAttribute('cite')).toBe('https://news.example.com/launch');
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe('2025-06-01T11:40:00.000Z');
    const hash = within(first).getByText('0123456789');
    expect(hash.getAttribute('title')).toContain(HASH_A);
    expect(hash.getAttribute('aria-description')).toContain(HASH_A);
    expect(within(first).getByRole('button', { name: 'Copy hash' })).toBeVisible();
    // A source without a title is named by its URL.
    expect(
      within(items[1] as HTMLElement).getByRole('link', { name: /other\.example\.org\/story/ }),
    ).toBeVisible();
  });

  test('links out in a new tab, with no referrer, no opener and no ranking credit', async () => {
    api.serve(inReview, { evidence: evidence() });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    const [link] = within(section).getAllByRole('link', { name: /Launch report/ });
    if (!link) throw new Error('no link');
    expect(link.getAttribute('href')).toBe('https://news.example.com/launch');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    for (const anchor of section.querySelectorAll('a')) {
      expect(anchor.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }
  });

  test('says how much was read, by which model, and that the quotes were verified', async () => {
    api.serve(inReview, { evidence: evidence() });
    const { container } = await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    expect(within(section).getByText('Pages read').nextElementSibling?.textContent).toBe('3');
    expect(within(section).getByText('Sites').nextElementSibling?.textContent).toBe('2');
    expect(within(section).getByText('Judged by').nextElementSibling?.textContent).toBe('gpt-4o-mini');
    expect(within(section).getByRole('status').textContent).toContain('Verified ✔');
    expect(within(section).getByRole('status').textContent).toContain('from 2 sites (at least 2 required)');
    // The page that could not be read is listed with why.
    expect(within(section).getByText('not read: refused address')).toBeInTheDocument();
    expect(container.textContent).not.toMatch(/25\+/);
  });

  test('one site is said in the singular (plural rules)', async () => {
    api.serve(inReview, {
      evidence: evidence({
        verification: { status: 'verified', reason: null, distinctSites: 1, minSites: 1 },
      }),
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    expect(within(section).getByRole('status').textContent).toContain('from 1 site (at least 1 required)');
  });

  test('shows a failed verification with its reason after a failed attempt', async () => {
    api.serve(testMarket({ status: 'settling', deadline: '2025-06-01T11:00:00.000Z' }), {
      evidence: evidence({
        citations: [{ ...(evidence().citations[0] as MarketEvidence['citations'][number]), verified: false }],
        verification: {
          status: 'failed',
          reason: 'A quote was not found in its page',
          distinctSites: 0,
          minSites: 2,
        },
      }),
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    const status = within(section).getByRole('status');
    expect(status.textContent).toContain('Verification failed: A quote was not found in its page');
    expect(status.textContent).toContain('Verified quotes came from 0 sites; at least 2 are required.');
    expect(within(section).getByText(/Quote NOT found in the page/)).toBeVisible();
  });

  test("marks the sources the market's creator named, in the quotes and in the pages read", async () => {
    const base = evidence();
    const [quoted, other] = base.citations;
    const [page, refused] = base.pages;
    if (!quoted || !other || !page || !refused) throw new Error('fixture');
    api.serve(inReview, {
      evidence: evidence({
        pages: [{ ...page, namedByCreator: true }, refused],
        citations: [{ ...quoted, namedByCreator: true }, other],
      }),
    });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    const section = await screen.findByRole('region', { name: 'Evidence' }, SLOW);
    const items = within(within(section).getByRole('list', { name: 'Quoted sources' })).getAllByRole(
      'listitem',
    );
    expect(within(items[0] as HTMLElement).getByText('Named by the creator')).toBeVisible();
    expect(within(items[1] as HTMLElement).queryByText('Named by the creator')).toBeNull();
    // Once in the quotes, once in the list of every page read.
    expect(within(section).getAllByText('Named by the creator')).toHaveLength(2);
    cleanup();
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    const zh = await screen.findByRole('region', { name: '证据' }, SLOW);
    expect(within(zh).getAllByText('创建者指定')).toHaveLength(2);
  });

  test('in Chinese', async () => {
    api.serve(inReview, { evidence: evidence() });
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />, { language: 'zh' });
    const section = await screen.findByRole('region', { name: '证据' }, SLOW);
    expect(within(section).getByRole('list', { name: '引用来源' })).toBeVisible();
    expect(within(section).getByRole('status').textContent).toContain('已验证 ✔');
    expect(within(section).getAllByRole('button', { name: '复制哈希' })[0]).toBeVisible();
    expect(within(section).getByText('The rocket lifted off at 09:00 UTC.').tagName).toBe('BLOCKQUOTE');
  });

  test('is not there before any resolution attempt', async () => {
    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={MARKET_PARTS} />);
    await screen.findByRole('region', { name: 'How resolution works' }, SLOW);
    expect(screen.queryByRole('region', { name: 'Evidence' })).toBeNull();
  });
});
