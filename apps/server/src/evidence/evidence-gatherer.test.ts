import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STALLED_CHANNEL } from '../../test/support/stuck-page-worker.ts';
import { html, json, startWebStub, type WebStub } from '../../test/support/web-stub.ts';
import { createEvidenceGatherer, EvidenceUnavailableError } from './evidence-gatherer.ts';
import type { EvidenceSettings } from './evidence-settings.ts';
import type { EvidenceGatherer, EvidenceQuestion } from './evidence-types.ts';
import { createPageReaders } from './page-readers.ts';

// The whole gather against loopback stand-ins: pages on one server, a SearXNG-shaped engine on
// another. No DNS: every URL is a 127.0.0.1 literal on an allow-listed port.

let site: WebStub;
let engine: WebStub;

const article = (title: string, sentence: string) =>
  html(
    title,
    `<article><h1>${title}</h1>${['one', 'two', 'three', 'four'].map((n) => `<p>${sentence} Paragraph ${n} adds ordinary context that a reader would skim past quickly.</p>`).join('')}</article>`,
  );

beforeAll(async () => {
  site = await startWebStub();
  engine = await startWebStub();
});
afterAll(async () => {
  await site.close();
  await engine.close();
});
beforeEach(() => {
  site.requests.length = 0;
  site.resetMaxInFlight();
});

function settings(overrides: Partial<EvidenceSettings> = {}): EvidenceSettings {
  return {
    search: { provider: 'searxng', url: engine.url('/') },
    allowHosts: [site.host],
    pageTimeoutMs: 2_000,
    ...overrides,
  };
}

function question(overrides: Partial<EvidenceQuestion> = {}): EvidenceQuestion {
  return {
    title: 'Will the Lakers beat the Celtics on 3 March?',
    description: `Resolves YES if the Lakers win. Official box score: ${site.url('/official')}`,
    resolutionInstructions: `Use ${site.url('/official')} or ${site.url('/second')}.`,
    deadline: new Date('2026-03-04T00:00:00Z'),
    now: new Date('2026-03-04T01:00:00Z'),
    ...overrides,
  };
}

/** The engine answers every query with these URLs. */
function searchReturns(paths: string[]) {
  engine.route(
    '/search',
    json({ query: 'q', results: paths.map((path) => ({ url: site.url(path), title: path, content: '' })) }),
  );
}

describe('createEvidenceGatherer', () => {
  it("reads the creator's URLs first, then search results, deduplicated, and ranks their passages", async () => {
    site.route('/official', article('Box score', 'The Lakers beat the Celtics 110 to 102 on 3 March.'));
    site.route('/second', article('Recap', 'Celtics fall to Lakers in Los Angeles.'));
    site.route('/news', article('News', 'The Lakers won against the Celtics, 110-102.'));
    site.route('/weather', article('Weather', 'Sunny skies expected over the weekend.'));
    searchReturns(['/news', '/official?utm_source=search', '/weather']);

    const bundle = await createEvidenceGatherer(settings()).gather(question());

    expect(bundle.searchProvider).toBe('searxng');
    expect(bundle.queries.length).toBeGreaterThanOrEqual(2);
    expect(bundle.pages.map((page) => [page.url, page.fromCreator])).toEqual([
      [site.url('/official'), true],
      [site.url('/second'), true],
      [site.url('/news'), false],
      [site.url('/weather'), false],
    ]);
    const official = bundle.pages[0];
    expect(official).toMatchObject({ title: 'Box score', httpStatus: 200, site: '127.0.0.1', error: null });
    expect(official?.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(official?.text).toContain('The Lakers beat the Celtics 110 to 102 on 3 March.');
    expect(bundle.searchErrors).toEqual([]);
    // Each page was read once although the engine named it for every query.
    expect(site.paths().filter((path) => path === '/news')).toHaveLength(1);
    expect(bundle.passages.length).toBeGreaterThan(0);
    expect(bundle.pages[bundle.passages[0]?.pageIndex ?? -1]?.text).toContain('Lakers');
    expect(bundle.passages.some((passage) => passage.pageIndex === 3)).toBe(false);
  });

  it('reads at most maxPages, a few at a time', async () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/slow${i}`);
    for (const path of paths)
      site.route(path, { ...(article(path, 'Lakers and Celtics.') as object), delayMs: 100 });
    searchReturns(paths);
    const bundle = await createEvidenceGatherer(settings({ maxPages: 8, concurrency: 3 })).gather(
      question({ description: 'No links here.', resolutionInstructions: null }),
    );
    expect(bundle.pages).toHaveLength(8);
    expect(site.paths().filter((path) => path.startsWith('/slow'))).toHaveLength(8);
    expect(site.maxInFlight()).toBeLessThanOrEqual(3);
    expect(site.maxInFlight()).toBeGreaterThan(1);
  });

  it("keeps half the pages for the search results: with one page, the creator's URLs get none", async () => {
    searchReturns(['/news']);
    const bundle = await createEvidenceGatherer(settings({ maxPages: 1 })).gather(question());
    expect(bundle.pages.map((page) => page.url)).toEqual([site.url('/news')]);
    const alone = await createEvidenceGatherer(settings({ maxPages: 1, search: null })).gather(question());
    expect(alone.pages.map((page) => page.url)).toEqual([site.url('/official')]);
  });

  it("reads at most maxCreatorPages of the creator's URLs, and knows a search result the creator named", async () => {
    const named = Array.from({ length: 12 }, (_, i) => site.url(`/named/${i}`));
    searchReturns(['/news', '/named/11']);
    const bundle = await createEvidenceGatherer(settings({ maxCreatorPages: 3 })).gather(
      question({ description: `Sources: ${named.join(', ')}`, resolutionInstructions: null }),
    );
    expect(bundle.pages.map((page) => [page.url, page.fromCreator])).toEqual([
      [named[0], true],
      [named[1], true],
      [named[2], true],
      [site.url('/news'), false],
      [named[11], true],
    ]);
  });

  it("a search result that redirects to a page the creator named is the creator's page", async () => {
    site.route('/official', article('Box score', 'The Lakers beat the Celtics.'));
    site.route('/hop', { redirect: site.url('/official') });
    searchReturns(['/hop']);
    const bundle = await createEvidenceGatherer(settings({ maxCreatorPages: 0 })).gather(question());
    expect(bundle.pages.map((page) => [page.url, page.finalUrl, page.fromCreator])).toEqual([
      [site.url('/hop'), site.url('/official'), true],
    ]);
  });

  it('never fails for bad pages: each one records why', async () => {
    site.route('/official', article('Box score', 'The Lakers beat the Celtics.'));
    site.route('/stall', 'hang');
    site.route('/pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
    searchReturns(['/missing', '/stall', '/pdf']);
    const bundle = await createEvidenceGatherer(settings({ pageTimeoutMs: 1_000 })).gather(
      question({
        resolutionInstructions: 'Also http://10.0.0.1/admin and http://127.0.0.1:1/ and file:///etc/passwd',
      }),
    );
    const errors = Object.fromEntries(bundle.pages.map((page) => [page.url, page.error]));
    expect(errors).toEqual({
      [site.url('/official')]: null,
      'http://10.0.0.1/admin': 'ADDRESS_REFUSED: 10.0.0.1 (private)',
      'http://127.0.0.1:1/': 'PORT_REFUSED: 1',
      [site.url('/missing')]: 'HTTP_404',
      [site.url('/stall')]: 'TIMEOUT',
      [site.url('/pdf')]: 'NOT_HTML: application/pdf',
    });
    expect(bundle.passages.every((passage) => passage.pageIndex === 0)).toBe(true);
  });

  it('abandons a page whose reading stalls or crashes its thread, and ranks the others', async () => {
    // The production reader, but `<!-- stall -->` blocks its thread and `<!-- crash -->` kills it.
    const readers = createPageReaders({
      budgetMs: 1_000,
      threads: 1,
      workerUrl: new URL('../../test/support/stuck-page-worker.ts', import.meta.url),
    });
    site.route('/official', article('Box score', 'The Lakers beat the Celtics 110 to 102 on 3 March.'));
    site.route('/second', html('Stall', '<!-- stall --><p>The Lakers beat the Celtics.</p>'));
    site.route('/news', html('Crash', '<!-- crash --><p>The Lakers beat the Celtics.</p>'));
    site.route('/recap', article('Recap', 'Celtics fall to Lakers in Los Angeles.'));
    searchReturns(['/news', '/recap']);
    const channel = new BroadcastChannel(STALLED_CHANNEL);
    // A timer on the server's thread, set when the page stalls its reader: it fires while the page
    // is still being read, before its budget runs out.
    const timerRan = new Promise<number>((resolve) => {
      channel.onmessage = () => setTimeout(() => resolve(readers.abandoned), 0);
    });
    try {
      const bundle = await createEvidenceGatherer(settings(), { pageReaders: readers }).gather(question());
      expect(await timerRan).toBe(0);
      expect(bundle.pages.map((page) => [page.url, page.error])).toEqual([
        [site.url('/official'), null],
        [site.url('/second'), 'PARSE_TIMEOUT'],
        [site.url('/news'), 'UNREADABLE'],
        [site.url('/recap'), null],
      ]);
      expect(readers.abandoned).toBe(1);
      expect(new Set(bundle.passages.map((passage) => passage.pageIndex))).toEqual(new Set([0, 3]));
    } finally {
      channel.close();
      await readers.close();
    }
  });

  it('ends on its own deadline, cutting the pages still being read or waiting', async () => {
    for (const path of ['/hang1', '/hang2', '/hang3']) site.route(path, 'hang');
    searchReturns(['/hang1', '/hang2', '/hang3']);
    const started = Date.now();
    const bundle = await createEvidenceGatherer(
      // Long enough for the search stub to answer on a loaded machine, far below the pages' timeout.
      settings({ concurrency: 1, pageTimeoutMs: 10_000, gatherTimeoutMs: 1_500 }),
    ).gather(question({ description: 'No links.', resolutionInstructions: null }));
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(bundle.pages.map((page) => page.error)).toEqual(['ABORTED', 'ABORTED', 'ABORTED']);
    // The pages still waiting their turn were never asked for.
    expect(site.paths().filter((path) => path.startsWith('/hang'))).toEqual(['/hang1']);
  });

  it("records a broken search engine and goes on with the creator's URLs", async () => {
    site.route('/official', article('Box score', 'The Lakers beat the Celtics.'));
    site.route('/second', article('Recap', 'Celtics fall to Lakers.'));
    engine.route('/search', { headers: { 'content-type': 'application/json' }, body: '{"results": [' });
    const bundle = await createEvidenceGatherer(settings()).gather(question());
    expect(bundle.pages.map((page) => page.error)).toEqual([null, null]);
    expect(bundle.searchErrors.length).toBe(bundle.queries.length);
    expect(bundle.searchErrors.every((error) => error === 'SEARCH_BAD_JSON')).toBe(true);
  });

  it('fails the attempt (to be retried) when search failed and nothing could be read', async () => {
    engine.route('/search', { status: 502, body: 'bad gateway' });
    const gather = createEvidenceGatherer(settings()).gather(
      question({ description: `Source: ${site.url('/missing')}`, resolutionInstructions: null }),
    );
    await expect(gather).rejects.toBeInstanceOf(EvidenceUnavailableError);
  });

  it('reads only the creator URLs without a search engine', async () => {
    site.route('/official', article('Box score', 'The Lakers beat the Celtics.'));
    site.route('/second', article('Recap', 'Celtics fall to Lakers.'));
    // What the judge holds: the shared interface.
    const gatherer: EvidenceGatherer = createEvidenceGatherer(settings({ search: null }));
    const bundle = await gatherer.gather(question());
    expect(bundle).toMatchObject({ searchProvider: null, queries: [] });
    expect(bundle.pages).toHaveLength(2);
  });
});
