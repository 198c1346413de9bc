import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { registerSystemRoutes } from '../src/system/system-routes.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// What keeps a public server up and its secrets in: rate limits that cannot be dodged, a cheap health check,
// an RPC key that never reaches the browser, and the security headers on every response.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** The real app with its system routes over the same chain and database, configured from `env`. */
async function appWith(env: Record<string, string>, options: { rateLimitPerMinute?: number } = {}) {
  const config = loadConfig({ RPC_URL: t.chain.rpcUrl, LOG_LEVEL: 'silent', JOBS: 'false', ...env });
  const app = await createApp({ ...t.deps, config }, { ...options, features: [registerSystemRoutes] });
  await app.ready();
  return app;
}

const statuses = async (send: (i: number) => Promise<{ statusCode: number }>, count: number) => {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await send(i)).statusCode);
  return out;
};

describe('rate limits', () => {
  test('A percent-encoded path reaches the route and counts against the limit like the plain one', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MIN: '2' });
    try {
      const codes = await statuses(() => app.inject({ method: 'GET', url: '/%61pi/config' }), 4);
      expect(codes).toEqual([200, 200, 429, 429]);
    } finally {
      await app.close();
    }
  });

  test('A made-up X-Forwarded-For does not buy a fresh bucket when no proxy is configured', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MIN: '2' });
    try {
      const codes = await statuses(
        (i) =>
          app.inject({ method: 'GET', url: '/api/config', headers: { 'x-forwarded-for': `203.0.113.${i}` } }),
        4,
      );
      expect(codes).toEqual([200, 200, 429, 429]);
    } finally {
      await app.close();
    }
  });

  test('Behind one proxy (TRUST_PROXY=1) each client is limited by the address the proxy saw', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MIN: '2', TRUST_PROXY: '1' });
    const viaProxy = (client: string, spoofed: string) =>
      app.inject({
        method: 'GET',
        url: '/api/config',
        remoteAddress: '10.0.0.2',
        // nginx's $proxy_add_x_forwarded_for: whatever the client sent, then the address it saw.
        headers: { 'x-forwarded-for': `${spoofed}, ${client}` },
      });
    try {
      const first = await statuses((i) => viaProxy('198.51.100.7', `203.0.113.${i}`), 3);
      expect(first).toEqual([200, 200, 429]);
      expect((await viaProxy('198.51.100.8', '203.0.113.1')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('RATE_LIMIT_PER_MIN=0 turns the limit off', async () => {
    const app = await appWith({ RATE_LIMIT_PER_MIN: '0' });
    try {
      const codes = await statuses(() => app.inject({ method: 'GET', url: '/api/config' }), 5);
      expect(codes).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await app.close();
    }
  });

  test('Health checks, however many, make at most one RPC call every few seconds', async () => {
    let rpcCalls = 0;
    const countingChain = createPublicClient({
      transport: http(t.chain.rpcUrl, {
        onFetchRequest: () => {
          rpcCalls += 1;
        },
      }),
    });
    const app = await createApp(
      { ...t.deps, chain: countingChain },
      { rateLimitPerMinute: 2, features: [registerSystemRoutes] },
    );
    try {
      const codes = await statuses(() => app.inject({ method: 'GET', url: '/api/health' }), 50);
      expect(codes.every((code) => code === 200)).toBe(true);
      expect(rpcCalls).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('the RPC URL', () => {
  test('/api/config shows PUBLIC_RPC_URL, never the key that RPC_URL carries', async () => {
    const app = await appWith({ RPC_URL: `${t.chain.rpcUrl}/SECRETKEY`, PUBLIC_RPC_URL: t.chain.rpcUrl });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/config' });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('SECRETKEY');
      expect(response.json().rpcUrl).toBe(t.chain.rpcUrl);
    } finally {
      await app.close();
    }
  });
});

describe('security headers', () => {
  test('Every response carries a CSP without inline script, nosniff, a referrer policy and no framing', async () => {
    for (const url of ['/api/config', '/api/nothing-here']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(`connect-src 'self' ${new URL(t.config.chain.publicRpcUrl).origin}`);
      expect(csp).toContain("style-src 'self';");
      expect(csp).not.toMatch(/(default|script)-src[^;]*unsafe/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  test('HSTS is sent only when the request came over TLS through a trusted proxy', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const direct = await t.app.inject({ method: 'GET', url: '/api/config', headers: https });
    expect(direct.headers['strict-transport-security']).toBeUndefined();
    const app = await appWith({ TRUST_PROXY: '1' });
    try {
      const proxied = await app.inject({ method: 'GET', url: '/api/config', headers: https });
      expect(proxied.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      const plain = await app.inject({ method: 'GET', url: '/api/config' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  test('Without CORS_ORIGINS another site gets no CORS permission; a configured origin does', async () => {
    const from = (origin: string) => ({ method: 'GET' as const, url: '/api/config', headers: { origin } });
    const closed = await t.app.inject(from('https://evil.example'));
    expect(closed.headers['access-control-allow-origin']).toBeUndefined();
    const app = await appWith({ CORS_ORIGINS: 'https://app.example' });
    try {
      const allowed = await app.inject(from('https://app.example'));
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await app.inject(from('https://evil.example'));
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
