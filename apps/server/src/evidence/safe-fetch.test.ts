import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { html, startWebStub, type WebStub } from '../../test/support/web-stub.ts';
import { type Resolver, type SafeFetchOptions, safeFetch } from './safe-fetch.ts';

// Every test talks to 127.0.0.1 only. Refusals of other addresses are proven through the injected
// resolver and the address check, which refuse before any socket is opened: never by connecting.

let site: WebStub;
/** A server nobody may reach: it counts what reaches it, and must see nothing. */
let canary: WebStub;

beforeAll(async () => {
  site = await startWebStub();
  canary = await startWebStub();
  canary.route('/', html('Canary', '<p>you should not be here</p>'));
});
afterAll(async () => {
  await site.close();
  await canary.close();
});

const noDns: Resolver = async (hostname) => {
  throw new Error(`no DNS in tests (${hostname})`);
};

function options(overrides: Partial<SafeFetchOptions> = {}): SafeFetchOptions {
  return {
    lookup: noDns,
    allowHosts: [site.host],
    userAgent: 'BNBPredictEvidenceBot/1.0 (test)',
    timeoutMs: 5_000,
    maxBytes: 2 * 1024 * 1024,
    maxRedirects: 3,
    ...overrides,
  };
}

describe('safeFetch', () => {
  it('reads an allow-listed page, hashing the bytes as received and naming the bot', async () => {
    const page = html('Hello', '<p>Hello, world.</p>');
    site.route('/hello', page);
    const result = await safeFetch(site.url('/hello'), options());
    const body = typeof page === 'object' && 'body' in page ? String(page.body) : '';
    expect(result).toMatchObject({
      url: site.url('/hello'),
      finalUrl: site.url('/hello'),
      httpStatus: 200,
      bytes: Buffer.byteLength(body),
      contentSha256: createHash('sha256').update(body).digest('hex'),
      body,
      error: null,
    });
    const request = site.requests.at(-1);
    expect(request?.headers['user-agent']).toBe('BNBPredictEvidenceBot/1.0 (test)');
    expect(request?.headers.host).toBe(site.host);
  });

  it('connects to the address it checked, once resolved, keeping the original Host header', async () => {
    site.route('/named', html('Named', '<p>by name</p>'));
    const lookup = vi.fn<Resolver>(async () => ['127.0.0.1']);
    const result = await safeFetch(
      `http://fixture.test:${site.port}/named`,
      options({
        lookup,
        allowHosts: [`fixture.test:${site.port}`],
      }),
    );
    expect(result.error).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(site.requests.at(-1)?.headers.host).toBe(`fixture.test:${site.port}`);
  });

  describe('refusals make no connection (the canary sees nothing)', () => {
    it('refuses a loopback address and port that are not allow-listed', async () => {
      const result = await safeFetch(canary.url('/'), options());
      expect(result).toMatchObject({ error: `PORT_REFUSED: ${canary.port}`, httpStatus: null, bytes: 0 });
      expect(canary.requests).toHaveLength(0);
    });

    it('refuses a name on another port of an allow-listed host', async () => {
      const lookup = vi.fn<Resolver>(async () => ['127.0.0.1']);
      const result = await safeFetch(`http://evil.test:${canary.port}/`, options({ lookup }));
      expect(result.error).toBe(`PORT_REFUSED: ${canary.port}`);
      expect(lookup).not.toHaveBeenCalled();
      expect(canary.requests).toHaveLength(0);
    });

    it.each([
      ['127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['::ffff:192.168.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
    ])('refuses a name that resolves to %s', async (address, range) => {
      const lookup = vi.fn<Resolver>(async () => [address]);
      const result = await safeFetch('http://innocent.test/page', options({ lookup }));
      expect(result).toMatchObject({
        error: `ADDRESS_REFUSED: ${address} (${range})`,
        httpStatus: null,
        bytes: 0,
      });
      expect(lookup).toHaveBeenCalledWith('innocent.test');
      expect(canary.requests).toHaveLength(0);
    });

    it('refuses a name with one public and one private address', async () => {
      const result = await safeFetch(
        'https://mixed.test/',
        options({ lookup: async () => ['93.184.216.34', '10.0.0.1'] }),
      );
      expect(result.error).toBe('ADDRESS_REFUSED: 10.0.0.1 (private)');
    });

    it('says when the name does not resolve', async () => {
      const result = await safeFetch('https://nowhere.test/', options());
      expect(result.error).toBe('DNS_FAILED: nowhere.test');
    });

    it.each([
      [
        'the canary (loopback, not allow-listed)',
        () => canary.url('/'),
        () => `PORT_REFUSED: ${canary.port}`,
      ],
      ['a private address', () => 'http://10.0.0.1/admin', () => 'ADDRESS_REFUSED: 10.0.0.1 (private)'],
      [
        'cloud metadata',
        () => 'http://169.254.169.254/latest/meta-data/',
        () => 'ADDRESS_REFUSED: 169.254.169.254 (linkLocal)',
      ],
      [
        'a name resolving to a private address',
        () => 'http://internal.test/',
        () => 'ADDRESS_REFUSED: 10.1.2.3 (private)',
      ],
      ['a file', () => 'file:///etc/passwd', () => 'SCHEME_REFUSED: file:'],
    ])('refuses a redirect from an allow-listed page to %s', async (_name, target, error) => {
      site.route('/bounce', { redirect: target() });
      const lookup = vi.fn<Resolver>(async () => ['10.1.2.3']);
      const result = await safeFetch(site.url('/bounce'), options({ lookup }));
      expect(result).toMatchObject({
        url: site.url('/bounce'),
        finalUrl: target(),
        error: error(),
        httpStatus: null,
      });
      expect(canary.requests).toHaveLength(0);
    });
  });

  describe('caps', () => {
    it('cuts a page over the cap: bytes at most the cap, hashed, and the socket closed', async () => {
      site.route('/endless', 'flood');
      const before = site.closedFloods();
      const result = await safeFetch(site.url('/endless'), options());
      expect(result).toMatchObject({
        httpStatus: 200,
        bytes: 2 * 1024 * 1024,
        error: 'TOO_LARGE',
        body: null,
      });
      expect(result.contentSha256).toBe(
        createHash('sha256')
          .update(Buffer.alloc(2 * 1024 * 1024, 0x61))
          .digest('hex'),
      );
      await vi.waitFor(() => expect(site.closedFloods()).toBe(before + 1));
    });

    it('reads a page of exactly the cap', async () => {
      site.route('/exact', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(1000) });
      const result = await safeFetch(site.url('/exact'), options({ maxBytes: 1000 }));
      expect(result).toMatchObject({ bytes: 1000, error: null });
    });

    it('times out a stalling page, connection and body included', async () => {
      site.route('/stall', 'hang');
      const started = Date.now();
      const result = await safeFetch(site.url('/stall'), options({ timeoutMs: 300 }));
      expect(result).toMatchObject({ error: 'TIMEOUT', httpStatus: null });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('times out a name that never resolves', async () => {
      const result = await safeFetch(
        'https://slow-dns.test/',
        options({ timeoutMs: 200, lookup: () => new Promise(() => {}) }),
      );
      expect(result.error).toBe('TIMEOUT');
    });

    it.each(['application/pdf', 'image/png', 'application/json', 'application/octet-stream'])(
      'refuses the content type %s',
      async (type) => {
        site.route('/binary', { headers: { 'content-type': type }, body: 'data' });
        const result = await safeFetch(site.url('/binary'), options());
        expect(result).toMatchObject({ httpStatus: 200, error: `NOT_HTML: ${type}`, body: null, bytes: 0 });
      },
    );

    it('reads HTML, XHTML and plain text', async () => {
      for (const type of ['text/html', 'application/xhtml+xml', 'text/plain; charset=utf-8']) {
        site.route('/typed', { headers: { 'content-type': type }, body: 'words' });
        expect((await safeFetch(site.url('/typed'), options())).body).toBe('words');
      }
    });

    it('decodes the charset the server names', async () => {
      site.route('/latin1', {
        headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
        body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      });
      expect((await safeFetch(site.url('/latin1'), options())).body).toBe('caf\u00e9');
    });

    it('follows 3 redirects and refuses the 4th', async () => {
      for (let hop = 1; hop <= 4; hop++)
        site.route(`/hop${hop}`, { redirect: `/hop${hop + 1}`, status: 301 });
      site.route('/hop5', html('Arrived', '<p>here</p>'));
      const three = await safeFetch(site.url('/hop2'), options());
      expect(three).toMatchObject({
        url: site.url('/hop2'),
        finalUrl: site.url('/hop5'),
        error: null,
        httpStatus: 200,
      });
      const four = await safeFetch(site.url('/hop1'), options());
      expect(four).toMatchObject({
        finalUrl: site.url('/hop4'),
        error: 'TOO_MANY_REDIRECTS',
        httpStatus: 301,
      });
    });

    it('records an HTTP error status', async () => {
      const result = await safeFetch(site.url('/missing'), options());
      expect(result).toMatchObject({ httpStatus: 404, error: 'HTTP_404', body: null });
    });
  });
});
