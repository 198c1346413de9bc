import { createEvidenceGatherer } from '../src/evidence/evidence-gatherer.ts';
import type { EvidenceQuestion } from '../src/evidence/evidence-types.ts';
import { html, json, startWebStub } from '../test/support/web-stub.ts';

// How long one resolution attempt spends gathering evidence, and what it holds in memory.
// A loopback web of 25 article pages (some slow) and a SearXNG-shaped engine on 127.0.0.1 only;
// the gatherer reads them as it would the web (SSRF checks, Readability, BM25) N times.
//   npm run bench:evidence -w apps/server [-- <runs>]

const runs = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 10);
const PAGES = 25;
const SLOW_PAGES = 5;
const SLOW_MS = 1_500;

const words = 'market price close exchange daily report analysts traders volume session index'.split(' ');
function paragraph(seed: number, topic: string): string {
  const sentence = (n: number) =>
    `${topic} ${Array.from({ length: 14 }, (_, i) => words[(seed * 7 + n * 3 + i) % words.length]).join(' ')}.`;
  return `<p>${Array.from({ length: 5 }, (_, n) => sentence(n)).join(' ')}</p>`;
}

/** An article of ~25 kB of HTML: navigation, a long body, a sidebar and a footer. */
function articlePage(index: number) {
  const topic =
    index % 3 === 0 ? 'Bitcoin closed above 100,000 dollars on Binance.' : 'The session was quiet.';
  const nav = Array.from({ length: 60 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(' ');
  const body = Array.from({ length: 40 }, (_, i) => paragraph(index + i, topic)).join('\n');
  const aside = Array.from(
    { length: 20 },
    (_, i) => `<li><a href="/related/${i}">Related story ${i}</a></li>`,
  ).join('');
  return html(
    `Page ${index} | Bench News`,
    `<nav>${nav}</nav><main><article><h1>Report ${index}</h1>${body}</article></main><aside><ul>${aside}</ul></aside><footer>Copyright, cookies, terms.</footer>`,
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const site = await startWebStub();
  const engine = await startWebStub();
  try {
    for (let index = 0; index < PAGES; index++) {
      const page = articlePage(index);
      site.route(`/article/${index}`, index < SLOW_PAGES ? { ...(page as object), delayMs: SLOW_MS } : page);
    }
    engine.route(
      '/search',
      json({
        query: 'q',
        results: Array.from({ length: PAGES }, (_, index) => ({
          url: site.url(`/article/${(index * 7) % PAGES}`),
          title: `Page ${index}`,
          content: '',
        })),
      }),
    );
    const gatherer = createEvidenceGatherer({
      search: { provider: 'searxng', url: engine.origin },
      allowHosts: [site.host],
    });
    const question: EvidenceQuestion = {
      title: 'Will Bitcoin close above $100,000 on Binance on 31 December?',
      description: `Resolves YES if the daily close is above 100,000. Source: ${site.url('/article/0')}`,
      resolutionInstructions: `Binance daily candle, ${site.url('/article/3')}`,
      deadline: new Date(),
      now: new Date(),
    };

    await gatherer.gather(question); // warm-up: module loading and JIT are not the gather
    globalThis.gc?.();
    const before = process.memoryUsage();
    const times: number[] = [];
    const kept = [];
    let pagesRead = 0;
    let passages = 0;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const bundle = await gatherer.gather(question);
      times.push(performance.now() - started);
      pagesRead = bundle.pages.filter((page) => page.error === null).length;
      passages = bundle.passages.length;
      kept.push(bundle);
    }
    globalThis.gc?.();
    const after = process.memoryUsage();
    times.sort((a, b) => a - b);
    const bundleChars = kept.reduce(
      (sum, bundle) => sum + bundle.pages.reduce((s, page) => s + page.text.length, 0),
      0,
    );
    console.log(
      `evidence gather: ${runs} runs, ${PAGES} pages (${SLOW_PAGES} answer after ${SLOW_MS} ms), concurrency 6`,
    );
    console.log(
      `  pages read ${pagesRead}, passages shown ${passages}, ${site.requests.length} page requests in all`,
    );
    console.log(
      `  p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, max ${times.at(-1)?.toFixed(0)} ms`,
    );
    console.log(
      `  memory held by ${runs} bundles: heapUsed +${mb(after.heapUsed - before.heapUsed)}, rss +${mb(after.rss - before.rss)} (page text ${mb(bundleChars * 2)} as UTF-16)${globalThis.gc ? '' : ' (run with --expose-gc for exact figures)'}`,
    );
  } finally {
    await site.close();
    await engine.close();
  }
}

await main();
