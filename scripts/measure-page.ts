import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page, Request } from '@playwright/test';
import { z } from 'zod';

// One cold visit of a built page, as `npm run bench:web` measures it. The definitions (what "at
// start" and "network quiet" mean, how FCP, LCP and TBT are read) are in docs/benchmarks.md.

export const QUIET_MS = 1_000;
export const QUIET_CAP_MS = 5_000;

export type PageTarget = {
  url: string;
  /** Where the page's files are built, to size them. */
  distDir: string;
};
/**
 * Chunks that load only once their part scrolls into view, after the page has rendered (the chart
 * library, decision 013). They are measured as `deferredJsBytes`, not as JS at start.
 */
export const DEFERRED_CHUNKS: RegExp[] = [/\/time-chart-canvas-[\w-]+\.js$/];
const isDeferred = (path: string) => DEFERRED_CHUNKS.some((pattern) => pattern.test(path));

export type PageRun = {
  jsBytes: number;
  /** Scripts of DEFERRED_CHUNKS the visit loaded (not in jsBytes). */
  deferredJsBytes: number;
  jsFiles: number;
  cssBytes: number;
  /** The same-origin scripts and stylesheets loaded, sorted: to check runs loaded the same. */
  files: string[];
  fcp: number | null;
  lcp: number | null;
  tbt: number | null;
  /** The network never went quiet: measured QUIET_CAP_MS after load. */
  capped: boolean;
};

/** A fresh browser context (cold cache), 1280×800, no input, measured until the network is quiet. */
export async function measurePage(browser: Browser, target: PageTarget): Promise<PageRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: OBSERVE_IN_PAGE });
    const origin = new URL(target.url).origin;
    const network = watchNetwork(page);
    const loaded = new Map<string, 'script' | 'stylesheet'>();
    page.on('response', (response) => {
      const type = response.request().resourceType();
      const url = new URL(response.url());
      if (network.quiet || url.origin !== origin || !response.ok()) return;
      if (type === 'script' || type === 'stylesheet') loaded.set(url.pathname, type);
    });
    await page.goto(target.url, { waitUntil: 'load', timeout: 30_000 });
    const capped = await network.waitForQuiet();
    const inPage = InPageSchema.parse(await page.evaluate(READ_IN_PAGE));

    const files = [...loaded.keys()].sort();
    const of = (type: 'script' | 'stylesheet') => files.filter((path) => loaded.get(path) === type);
    const gzipBytes = (paths: string[]) =>
      paths.reduce((sum, path) => sum + gzipSize(target.distDir, path), 0);
    const { fcp } = inPage;
    const scripts = of('script');
    const atStart = scripts.filter((path) => !isDeferred(path));
    return {
      jsBytes: gzipBytes(atStart),
      deferredJsBytes: gzipBytes(scripts.filter(isDeferred)),
      jsFiles: atStart.length,
      cssBytes: gzipBytes(of('stylesheet')),
      files,
      fcp,
      lcp: inPage.lcp,
      tbt:
        fcp === null
          ? null
          : inPage.longTasks
              .filter((task) => task.start >= fcp && task.start < inPage.now)
              .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
      capped,
    };
  } finally {
    await context.close();
  }
}

// "Network quiet": nothing in flight for QUIET_MS, counted from the load event or the end of the
// last request, whichever is later. Only documents, scripts, stylesheets and the first request for
// each fetch/XHR URL count: the app polls every 1–30 s, and a repeat of a URL is polling, not
// loading. WebSockets (/api/realtime) are not requests. Capped at QUIET_CAP_MS after load.
function watchNetwork(page: Page) {
  const inFlight = new Set<Request>();
  const fetchedUrls = new Set<string>();
  let lastActivity = 0;
  const counts = (request: Request) => {
    const type = request.resourceType();
    if (type === 'document' || type === 'script' || type === 'stylesheet') return true;
    if ((type !== 'fetch' && type !== 'xhr') || fetchedUrls.has(request.url())) return false;
    fetchedUrls.add(request.url());
    return true;
  };
  const settle = (request: Request) => {
    if (inFlight.delete(request)) lastActivity = Date.now();
  };
  page.on('request', (request) => {
    if (!counts(request)) return;
    inFlight.add(request);
    lastActivity = Date.now();
  });
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  const network = {
    quiet: false,
    /** Call once the load event has fired. Resolves true when it stopped at the cap. */
    async waitForQuiet(): Promise<boolean> {
      const loadedAt = Date.now();
      for (;;) {
        const now = Date.now();
        const settled = inFlight.size === 0 && now - Math.max(lastActivity, loadedAt) >= QUIET_MS;
        if (settled || now - loadedAt >= QUIET_CAP_MS) {
          network.quiet = true;
          return !settled;
        }
        await new Promise((done) => setTimeout(done, 20));
      }
    },
  };
  return network;
}

// Browser-side code as text: scripts/ is type-checked against Node's globals, not the DOM's.
// Registered before any page script runs, so the observers see every long task and LCP candidate.
const OBSERVE_IN_PAGE = `
  window.__benchWeb = { longTasks: [], lcp: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__benchWeb.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    if (last) window.__benchWeb.lcp = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;
const READ_IN_PAGE = `({
  now: performance.now(),
  fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  lcp: window.__benchWeb.lcp,
  longTasks: window.__benchWeb.longTasks,
})`;
const InPageSchema = z.object({
  now: z.number(),
  fcp: z.number().nullable(),
  lcp: z.number().nullable(),
  longTasks: z.array(z.object({ start: z.number(), duration: z.number() })),
});

// Sizes come from the built files, gzipped here at the default level: deterministic, and the same
// whatever the server does about compression.
const gzipSizes = new Map<string, number>();
function gzipSize(distDir: string, pathname: string): number {
  const file = resolve(distDir, `.${decodeURIComponent(pathname)}`);
  if (!file.startsWith(distDir + sep) || !existsSync(file)) {
    throw new Error(`${pathname} was loaded but is not a file of ${distDir}`);
  }
  const size = gzipSizes.get(file) ?? gzipSync(readFileSync(file)).length;
  gzipSizes.set(file, size);
  return size;
}
