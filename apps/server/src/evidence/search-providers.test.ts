import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startWebStub, type WebStub } from '../../test/support/web-stub.ts';
import { createSearchProvider, MAX_SEARCH_RESPONSE_BYTES } from './search-providers.ts';

// Each provider against a loopback stand-in that answers in that API's JSON shape.

let engine: WebStub;
beforeAll(async () => {
  engine = await startWebStub();
});
afterAll(async () => {
  await engine.close();
});

const signal = () => AbortSignal.timeout(5_000);

describe('search providers', () => {
  it('SearXNG: GET /search?q=…&format=json, results[].url/title/content', async () => {
    engine.route(
      '/searx/search',
      json({
        query: 'q',
        number_of_results: 1,
        results: [{ url: 'https://a.example/1', title: 'A', content: 'snippet A', engine: 'x' }],
      }),
    );
    const provider = createSearchProvider({ provider: 'searxng', url: engine.url('/searx/') });
    expect(await provider.search('bitcoin close', { signal: signal() })).toEqual([
      { url: 'https://a.example/1', title: 'A', snippet: 'snippet A' },
    ]);
    const request = engine.requests.at(-1);
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/searx/search?q=bitcoin+close&format=json');
  });

  it('Brave: GET with X-Subscription-Token, web.results[].url/title/description', async () => {
    engine.route(
      '/brave',
      json({
        type: 'search',
        web: { results: [{ url: 'https://b.example/1', title: 'B', description: 'snippet B' }] },
      }),
    );
    const provider = createSearchProvider({
      provider: 'brave',
      url: engine.url('/brave'),
      apiKey: 'brave-key',
    });
    expect(await provider.search('q', { signal: signal() })).toEqual([
      { url: 'https://b.example/1', title: 'B', snippet: 'snippet B' },
    ]);
    const request = engine.requests.at(-1);
    expect(request?.headers['x-subscription-token']).toBe('brave-key');
    expect(request?.path).toBe('/brave?q=q&count=10');
  });

  it('Brave: no web results is an empty list', async () => {
    engine.route('/brave-empty', json({ type: 'search' }));
    const provider = createSearchProvider({
      provider: 'brave',
      url: engine.url('/brave-empty'),
      apiKey: 'k',
    });
    expect(await provider.search('q', { signal: signal() })).toEqual([]);
  });

  it('Tavily: POST JSON with a Bearer key, results[].url/title/content', async () => {
    engine.route(
      '/tavily',
      json({
        query: 'q',
        results: [{ url: 'https://c.example/1', title: 'C', content: 'snippet C', score: 0.9 }],
        response_time: 1,
      }),
    );
    const provider = createSearchProvider({
      provider: 'tavily',
      url: engine.url('/tavily'),
      apiKey: 'tvly-key',
    });
    expect(await provider.search('the query', { signal: signal() })).toEqual([
      { url: 'https://c.example/1', title: 'C', snippet: 'snippet C' },
    ]);
    const request = engine.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.headers.authorization).toBe('Bearer tvly-key');
    expect(JSON.parse(request?.body ?? '')).toMatchObject({ query: 'the query', max_results: 10 });
  });

  it.each([
    ['an HTTP error', { status: 503, body: 'down' }, 'SEARCH_HTTP_503'],
    [
      'malformed JSON',
      { headers: { 'content-type': 'application/json' }, body: '{"results": [' },
      'SEARCH_BAD_JSON',
    ],
    [
      'the wrong shape',
      { headers: { 'content-type': 'application/json' }, body: '{"results": "nope"}' },
      'SEARCH_BAD_RESPONSE',
    ],
    [
      'a body past the cap',
      {
        headers: { 'content-type': 'application/json' },
        body: `{"x":"${'a'.repeat(MAX_SEARCH_RESPONSE_BYTES)}"}`,
      },
      'SEARCH_TOO_LARGE',
    ],
  ])('fails with a named error on %s', async (_name, reply, message) => {
    engine.route('/bad/search', reply);
    const provider = createSearchProvider({ provider: 'searxng', url: engine.url('/bad') });
    await expect(provider.search('q', { signal: signal() })).rejects.toThrow(message);
  });
});

// Security review 2 (Lows): a search API that answered with a redirect had fetch follow it,
// re-sending the key (Brave's header, Tavily's body on a 307/308) to wherever it pointed. The
// canary is a second loopback server standing for "anywhere else": it must see no connection.
describe('a search API that redirects', () => {
  let canary: WebStub;
  beforeAll(async () => {
    canary = await startWebStub();
    canary.route('/steal', json({ results: [], web: { results: [] } }));
  });
  afterAll(async () => {
    await canary.close();
  });

  it.each([
    ['brave', 302],
    ['tavily', 307],
    ['tavily', 308],
    ['searxng', 301],
  ] as const)('%s answered %i: the search fails and the key goes nowhere', async (provider, status) => {
    const path = `/redirect-${provider}-${status}`;
    engine.route(path, { redirect: canary.url('/steal'), status });
    const search = createSearchProvider({
      provider,
      url: provider === 'searxng' ? engine.url(`${path}/`) : engine.url(path),
      apiKey: 'secret-search-key',
    });
    if (provider === 'searxng') engine.route(`${path}/search`, { redirect: canary.url('/steal'), status });
    await expect(search.search('q', { signal: signal() })).rejects.toThrow(`SEARCH_HTTP_${status}`);
    expect(canary.requests).toEqual([]);
  });
});
