import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { EvidencePassage } from './evidence-types.ts';
import type { PageJob, PageTask } from './page-worker.ts';
import type { RankablePage, RankOptions } from './rank-passages.ts';
import type { ReadPage } from './read-page.ts';

// A page is hostile data, and reading it (DOM, Readability) or ranking its text is CPU
// that one crafted page can make last seconds. Both run in a small pool of worker threads
// (piscina, docs/decisions/027), so the server's event loop keeps answering; each task has a time
// budget from the moment a thread starts it, and a task over budget is abandoned by ending its
// thread (a synchronous loop cannot be interrupted any other way). The pool starts a new thread
// for the next task, as it does for a thread that crashed.

/** Why a page could not be read: over its budget, the gather's deadline passed, or it failed. */
export type PageReadFailure = 'PARSE_TIMEOUT' | 'ABORTED' | 'UNREADABLE';

export class PageReadError extends Error {
  override name = 'PageReadError';
  readonly code: PageReadFailure;
  constructor(code: PageReadFailure, options?: ErrorOptions) {
    super(code, options);
    this.code = code;
  }
}

export type PageReaders = {
  /** The page's title and text; rejects with a PageReadError. */
  read(body: string, contentType: string | null, signal?: AbortSignal): Promise<ReadPage>;
  /** rankPassages in a thread, with `budgetMs`; rejects with a PageReadError. */
  rank(
    pages: RankablePage[],
    question: string,
    options: RankOptions,
    budgetMs: number,
    signal?: AbortSignal,
  ): Promise<EvidencePassage[]>;
  /** Tasks abandoned over their budget since the pool was made. */
  readonly abandoned: number;
  /** Ends the threads (running tasks reject). */
  close(): Promise<void>;
};

export type PageReadersOptions = {
  /** A page's read, from the moment a thread starts it (EVIDENCE_PAGE_PARSE_MS). */
  budgetMs: number;
  /** Threads at most; further tasks wait their turn in order. */
  threads: number;
  /** The thread's module; tests give one that can stall or crash. */
  workerUrl?: URL;
};

/** The threads end when no task came for this long: an instance that is not judging holds none. */
const IDLE_POOL_MS = 30_000;

/**
 * The reader's module beside this one: page-worker.ts under tsx and Vitest, page-worker.js in the
 * compiled server, where esbuild emits it next to dist/main.js (scripts/build-server.mjs).
 */
export function pageWorkerUrl(moduleUrl: string = import.meta.url): URL {
  return new URL(moduleUrl.endsWith('.ts') ? './page-worker.ts' : './page-worker.js', moduleUrl);
}

export function createPageReaders(options: PageReadersOptions): PageReaders {
  const workerUrl = options.workerUrl ?? pageWorkerUrl();
  // Said at start, not as every page UNREADABLE later: a build that did not emit the reader.
  if (!existsSync(fileURLToPath(workerUrl))) {
    throw new Error(`The page reader ${fileURLToPath(workerUrl)} is missing: rebuild the server`);
  }
  let abandoned = 0;
  let pool: Piscina<PageTask, ReadPage | EvidencePassage[]> | undefined;
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;

  /**
   * The pool exists while pages are being read and IDLE_POOL_MS after. It keeps `threads` threads
   * (piscina replaces one it ended or lost only up to minThreads, and a task waiting for a thread
   * would wait for ever), so an instance that is not judging holds no thread at all.
   */
  function openPool() {
    clearTimeout(idleTimer);
    pool ??= new Piscina({
      filename: workerUrl.href,
      minThreads: options.threads,
      maxThreads: options.threads,
    }).on('error', () => {
      // A thread that died between tasks: replaced, and there is no task to reject. Without a
      // listener the 'error' event would end the server.
    });
    return pool;
  }
  function release() {
    if (--inFlight > 0) return;
    idleTimer = setTimeout(() => {
      void pool?.destroy();
      pool = undefined;
    }, IDLE_POOL_MS);
    idleTimer.unref();
  }

  async function run<T>(job: PageJob, budgetMs: number, signal: AbortSignal | undefined): Promise<T> {
    inFlight++;
    const budget = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The budget starts when the thread says it has begun: not while the task waited for a thread,
    // nor while a new thread loaded its libraries.
    const { port1: startedHere, port2: started } = new MessageChannel();
    startedHere.once('message', () => {
      timer = setTimeout(() => {
        abandoned++;
        budget.abort();
      }, budgetMs);
    });
    try {
      return (await openPool().run(
        { ...job, started },
        {
          transferList: [started],
          signal: signal ? AbortSignal.any([budget.signal, signal]) : budget.signal,
        },
      )) as T;
    } catch (error) {
      if (budget.signal.aborted) throw new PageReadError('PARSE_TIMEOUT');
      if (signal?.aborted) throw new PageReadError('ABORTED');
      throw new PageReadError('UNREADABLE', { cause: error });
    } finally {
      clearTimeout(timer);
      startedHere.close();
      release();
    }
  }

  return {
    read: (body, contentType, signal) =>
      run<ReadPage>({ kind: 'read', body, contentType }, options.budgetMs, signal),
    rank: (pages, question, rankOptions, budgetMs, signal) =>
      run<EvidencePassage[]>({ kind: 'rank', pages, question, options: rankOptions }, budgetMs, signal),
    get abandoned() {
      return abandoned;
    },
    async close() {
      clearTimeout(idleTimer);
      await pool?.destroy();
      pool = undefined;
    },
  };
}
