import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  completion,
  messagesOf,
  type StubReply,
  type StubRequest,
} from '../../apps/server/test/support/ai-stub.ts';

// The outside world the judge reads (decision 018), on loopback only: a SearXNG-shaped JSON search
// stand-in and two "news sites" serving fixture pages. The judge counts distinct sites by host, so
// one site is addressed as 127.0.0.1 and the other as localhost (both listen on 127.0.0.1 only).
// And the AI stub's answers for the evidence-reading judge: it quotes, word for word, a sentence
// of the passages the server put in its prompt, one per site.

/** A sentence every fixture page carries, so a spec can recognise a quote taken from one. */
export const FIXTURE_SENTENCE =
  'confirmed on the record that the event in this report took place before the deadline.';

export type FixtureSite = { name: string; origin: string; hostPort: string; close: () => Promise<void> };

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The page of a site about `slug`: navigation and a footer around the article, as real pages have. */
export function fixturePage(siteName: string, slug: string): { title: string; html: string } {
  const topic = slug.replaceAll('-', ' ');
  const title = `${siteName}: report on ${topic}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<nav><a href="/">Home</a> <a href="/world">World</a> <a href="/markets">Markets</a></nav>
<main><article>
<h1>${escapeHtml(title)}</h1>
<p>The ${escapeHtml(siteName)} newsroom ${FIXTURE_SENTENCE}</p>
<p>Reporters of ${escapeHtml(siteName)} followed the story about ${escapeHtml(topic)} from its start and checked it with two independent witnesses.</p>
<p>Nothing in the public record suggests the outcome will change after publication.</p>
</article></main>
<footer>© ${escapeHtml(siteName)} · Terms · Privacy</footer>
</body></html>`;
  return { title, html };
}

/** A news site on 127.0.0.1 addressed as `host` (127.0.0.1 or localhost): GET /news/<slug>. */
export async function startFixtureSite(name: string, host: '127.0.0.1' | 'localhost'): Promise<FixtureSite> {
  const server = createServer((request, response) => {
    const match = /^\/news\/([a-z0-9-]{1,80})$/.exec(new URL(request.url ?? '/', 'http://x').pathname);
    if (!match?.[1]) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const page = fixturePage(name, match[1]);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
  });
  const port = await listen(server);
  // Where localhost also names ::1 and lists it first, the gatherer connects there: listen on it
  // too (loopback still), when the machine has IPv6 and the port is free there.
  const v6 = host === 'localhost' ? await alsoOnIpv6Loopback(server, port) : null;
  return {
    name,
    origin: `http://${host}:${port}`,
    hostPort: `${host}:${port}`,
    close: async () => {
      if (v6) await closeServer(v6);
      await closeServer(server);
    },
  };
}

async function alsoOnIpv6Loopback(first: Server, port: number): Promise<Server | null> {
  const twin = createServer((request, response) => first.emit('request', request, response));
  try {
    twin.listen(port, '::1');
    await once(twin, 'listening');
    return twin;
  } catch {
    return null;
  }
}

/** The words of a query as a URL path segment. */
export function slugOf(query: string): string {
  const slug = query
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'question';
}

/**
 * SearXNG's JSON API as the gatherer calls it (GET /search?q=…&format=json): for any query, one
 * result on each fixture site about that query. Every query it got is kept for the specs.
 */
export async function startSearchStub(sites: readonly FixtureSite[]) {
  const queries: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname !== '/search') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const query = url.searchParams.get('q') ?? '';
    queries.push(query);
    const slug = slugOf(query);
    const results = sites.map((site, index) => ({
      url: `${site.origin}/news/${slug}`,
      title: fixturePage(site.name, slug).title,
      content: `${site.name} on ${query}`,
      engine: 'fixture',
      engines: ['fixture'],
      score: sites.length - index,
      category: 'general',
    }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        query,
        number_of_results: results.length,
        results,
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
    );
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, queries, close: () => closeServer(server) };
}

type Passage = { url: string; text: string };

/** The passages of the judge's <evidence_data> block (one encoded JSON object per line). */
export function passagesOf(user: string): Passage[] {
  const open = user.indexOf('<evidence_data>');
  const close = user.indexOf('</evidence_data>');
  if (open < 0 || close < open) return [];
  return user
    .slice(open + '<evidence_data>'.length, close)
    .split('\n')
    .flatMap((line) => {
      if (!line.trim()) return [];
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || !('url' in value) || !('text' in value)) return [];
      const { url, text } = value;
      return typeof url === 'string' && typeof text === 'string' ? [{ url, text }] : [];
    });
}

/** The sentences of a text (a heading and its paragraph are apart: a line break ends one too). */
const sentencesOf = (text: string) => (text.match(/[^.!?\n]+[.!?]/g) ?? []).map((each) => each.trim());

/**
 * One quote per site, as a judge following the prompt would: a whole sentence of its first
 * passage, copied character for character (the fixture sentence when the passage has it).
 */
export function citationsOf(passages: readonly Passage[]): { url: string; quote: string }[] {
  const seen = new Set<string>();
  const citations: { url: string; quote: string }[] = [];
  for (const passage of passages) {
    const host = new URL(passage.url).hostname;
    if (seen.has(host)) continue;
    const sentences = sentencesOf(passage.text).filter((each) => each.length >= 20);
    const quote = sentences.find((each) => each.endsWith(FIXTURE_SENTENCE)) ?? sentences[0];
    if (!quote) continue;
    seen.add(host);
    citations.push({ url: passage.url, quote });
  }
  return citations;
}

export type StubVerdict = { verdict: string; confidence: number; analysis: string; sources?: string[] };
export type StubAnalysis = {
  decidable: boolean;
  problems: { kind: string; detail: string }[];
  suggestedInstructions: string;
};

/** The default analysis: one problem and instructions to take (evidence.spec.ts takes them). */
export const STUB_ANALYSIS: StubAnalysis = {
  decidable: false,
  problems: [{ kind: 'ambiguous', detail: 'The question does not say which source decides it.' }],
  suggestedInstructions:
    'Resolve YES only if two independent news sites report the event before the deadline.',
};

const schemaName = (request: StubRequest): string => {
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('response_format' in body)) return '';
  const format: unknown = body.response_format;
  if (typeof format !== 'object' || format === null || !('json_schema' in format)) return '';
  const schema: unknown = format.json_schema;
  return typeof schema === 'object' && schema !== null && 'name' in schema && typeof schema.name === 'string'
    ? schema.name
    : '';
};

/**
 * What the stub judge answers a chat-completions request: the analysis for the analyzer, the
 * verdict with word-for-word citations for a judge that reads evidence, else the verdict with its
 * sources (a market whose prompt version reads no evidence).
 */
export function judgeReply(request: StubRequest, verdict: StubVerdict, analysis: StubAnalysis): StubReply {
  const { system, user } = messagesOf(request);
  const name = schemaName(request);
  if (name === 'market_analysis' || system.startsWith('You review questions')) return completion(analysis);
  if (name === 'market_verdict_cited' || user.includes('<evidence_data>')) {
    const { sources: _sources, ...rest } = verdict;
    const citations = rest.verdict === 'UNDECIDABLE' ? [] : citationsOf(passagesOf(user));
    return completion({ ...rest, citations });
  }
  return completion(verdict);
}
