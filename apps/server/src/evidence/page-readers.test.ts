import { afterAll, describe, expect, it } from 'vitest';
import { STALLED_CHANNEL } from '../../test/support/stuck-page-worker.ts';
import { createPageReaders, PageReadError, type PageReaders, pageWorkerUrl } from './page-readers.ts';
import { rankPassages } from './rank-passages.ts';
import { readPage } from './read-page.ts';

// Reading and ranking run in reader threads, each task within its budget. The stalling
// and crashing pages come from test/support/stuck-page-worker.ts, the production reader with two
// markers: `<!-- stall -->` blocks its thread for ever, `<!-- crash -->` kills it.

const stuckWorker = new URL('../../test/support/stuck-page-worker.ts', import.meta.url);
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const article = page(
  'Rates held',
  `<nav>Home | World</nav><article><h1>Central bank holds rates</h1>${[1, 2, 3, 4]
    .map((n) => `<p>Paragraph ${n}. The central bank kept its policy rate at 5.25 percent on Tuesday.</p>`)
    .join('')}</article>`,
);

const pools: PageReaders[] = [];
function readers(options: { budgetMs: number; threads: number; stuck?: boolean }): PageReaders {
  const made = createPageReaders({
    budgetMs: options.budgetMs,
    threads: options.threads,
    ...(options.stuck ? { workerUrl: stuckWorker } : {}),
  });
  pools.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  return error instanceof PageReadError ? error.code : `not a PageReadError: ${String(error)}`;
}

describe('page readers', () => {
  it('read and rank in a thread exactly as in the server', async () => {
    const pool = readers({ budgetMs: 10_000, threads: 2 });
    expect(await pool.read(article, 'text/html; charset=utf-8')).toEqual(readPage(article, 'text/html'));
    const pages = [
      { text: readPage(article, 'text/html').text, fromCreator: true },
      { text: 'Markets rallied.\n\nThe central bank rate decision surprised nobody.', fromCreator: false },
    ];
    const options = { tokenBudget: 500, maxPassagesPerPage: 2 };
    expect(await pool.rank(pages, 'central bank rate', options, 10_000)).toEqual(
      rankPassages(pages, 'central bank rate', options),
    );
  });

  it('abandons a page over its budget by ending its thread, while the event loop keeps running', async () => {
    const pool = readers({ budgetMs: 1_000, threads: 1, stuck: true });
    const channel = new BroadcastChannel(STALLED_CHANNEL);
    // Set when the stalled thread says so, checked by a timer on this thread: it must fire while
    // the page is still being read, before the pool gives up on it.
    let next: Promise<number> | undefined;
    const timerRan = new Promise<{ abandonedThen: number }>((resolve) => {
      channel.onmessage = () => {
        // Queued behind the stalled page on the only thread, for longer than a budget: the wait is
        // not charged to it, and it is read on a new thread once the stalled one is ended.
        next = pool.read(article, 'text/html').then(() => pool.abandoned);
        setTimeout(() => resolve({ abandonedThen: pool.abandoned }), 0);
      };
    });
    try {
      const stalled = pool.read(page('Stall', '<!-- stall --><p>never read</p>'), 'text/html');
      expect(await timerRan).toEqual({ abandonedThen: 0 });
      expect(await failure(stalled)).toBe('PARSE_TIMEOUT');
      expect(pool.abandoned).toBe(1);
      expect(await next).toBe(1);
    } finally {
      channel.close();
    }
  });

  it('replaces a thread that crashed: the page is UNREADABLE, the next one is read', async () => {
    const pool = readers({ budgetMs: 10_000, threads: 1, stuck: true });
    expect(await failure(pool.read(page('Crash', '<!-- crash -->'), 'text/html'))).toBe('UNREADABLE');
    expect((await pool.read(article, 'text/html')).title).toBe('Rates held');
    expect(pool.abandoned).toBe(0);
  });

  it("ends a page's reading at the caller's signal (the gather's deadline): ABORTED", async () => {
    const pool = readers({ budgetMs: 60_000, threads: 1, stuck: true });
    const deadline = new AbortController();
    const stalled = pool.read(page('Stall', '<!-- stall -->'), 'text/html', deadline.signal);
    const channel = new BroadcastChannel(STALLED_CHANNEL);
    try {
      await new Promise((resolve) => {
        channel.onmessage = resolve;
      });
      deadline.abort();
      expect(await failure(stalled)).toBe('ABORTED');
      expect((await pool.read(article, 'text/html')).title).toBe('Rates held');
    } finally {
      channel.close();
    }
  });

  it('finds the reader beside itself: page-worker.ts in the sources, page-worker.js beside dist/main.js', () => {
    expect(pageWorkerUrl().pathname).toMatch(/\/apps\/server\/src\/evidence\/page-worker\.ts$/);
    expect(pageWorkerUrl('file:///srv/app/apps/server/dist/main.js').href).toBe(
      'file:///srv/app/apps/server/dist/page-worker.js',
    );
  });

  it('refuses to start without its reader, rather than find every page unreadable later', () => {
    expect(() =>
      createPageReaders({
        budgetMs: 1_000,
        threads: 1,
        workerUrl: new URL('./no-such-worker.js', import.meta.url),
      }),
    ).toThrow(/no-such-worker\.js is missing: rebuild the server/);
  });
});
