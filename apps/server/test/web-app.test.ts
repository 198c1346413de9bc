import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

// A built web app as apps/web writes it: hashed assets with .br and .gz copies beside them.
const webDist = mkdtempSync(join(tmpdir(), 'pm-web-dist-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const html = '<!doctype html><html><body><div id="root"></div></body></html>';
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), html);
writeFileSync(join(webDist, 'assets', 'app-Ab12Cd34.js'), script);
writeFileSync(join(webDist, 'assets', 'app-Ab12Cd34.js.br'), brotliCompressSync(script));
writeFileSync(join(webDist, 'assets', 'app-Ab12Cd34.js.gz'), gzipSync(script));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const getAsset = (acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/assets/app-Ab12Cd34.js',
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  });

describe('the web app', () => {
  test('A browser that accepts brotli gets the brotli copy of a script', async () => {
    const response = await getAsset('gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.rawPayload).toEqual(readFileSync(join(webDist, 'assets', 'app-Ab12Cd34.js.br')));
  });

  test('A browser that accepts only gzip gets the gzip copy, and one that accepts neither the file', async () => {
    const gzipped = await getAsset('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload).toEqual(readFileSync(join(webDist, 'assets', 'app-Ab12Cd34.js.gz')));
    const plain = await getAsset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  test('Hashed assets are cached for good; the page itself is revalidated', async () => {
    expect((await getAsset('br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toBe(html);
  });

  test('A route of the app gets index.html; an unknown API path the error shape', async () => {
    const route = await t.app.inject({ method: 'GET', url: '/market/7' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/text\/html/);
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.body).toBe(html);
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  test('The fallback page is read once at start, not from disk for every unknown path', async () => {
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>changed on disk</title>');
    try {
      const route = await t.app.inject({ method: 'GET', url: '/some/unknown/path' });
      expect(route.statusCode).toBe(200);
      expect(route.body).toBe(html);
    } finally {
      writeFileSync(join(webDist, 'index.html'), html);
    }
  });

  test('The page is served with a CSP that forbids inline script and framing', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/market/7' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
