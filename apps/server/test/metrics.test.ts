import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeMarketPayouts } from '@pm/core/payouts';
import { desc, eq } from 'drizzle-orm';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createServerProcess } from '../chaos/server-process.ts';
import { loadConfig } from '../src/config/config.ts';
import { payoutLists } from '../src/db/schema.ts';
import { findFreePort } from '../src/dev/local-chain.ts';
import { OPERATOR_DECIDES } from '../src/escrow/settlements/dispute-settlement-repository.ts';
import { type MetricsListener, startMetricsListener } from '../src/metrics/metrics-server.ts';
import { postClaim, postEscrowSettlement } from './support/escrow-market-helpers.ts';
import { watchBalance } from './support/escrow-stakes.ts';
import { marketHelpers } from './support/market-helpers.ts';
import { signOperatorAction } from './support/operator-helpers.ts';
import { listenForMetrics, startTestApp, type TestApp } from './support/test-app.ts';

// docs/operations.md "Metrics": Prometheus text on a listener of its own, scraped
// over real HTTP after real traffic — bets paid on the local chain, a refused payment, an operator's
// verdict, a claim relayed from the escrow, job runs, a WebSocket client — and no label that names a
// user, a transaction or a raw URL.

let t: TestApp;
let m: ReturnType<typeof marketHelpers>;
let listener: MetricsListener;

beforeAll(async () => {
  // Player #1 of the dev mnemonic is the operator who settles the market.
  t = await startTestApp({ OPERATOR_ADDRESSES: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  m = marketHelpers(t);
  listener = await listenForMetrics(t);
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The Prometheus text format, one sample per line (prom-client escapes `\`, `"` and newlines). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = pair[2] ?? '';
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape() {
  const response = await fetch(listener.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const samples = parseExposition(text);
  /** The sum of the series of `name` whose labels include `labels` (0 when there is none). */
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, want]) => sample.labels[key] === want),
      )
      .reduce((sum, sample) => sum + sample.value, 0);
  const has = (name: string) => samples.some((sample) => sample.name === name);
  return { text, samples, value, has };
}

type Scrape = Awaited<ReturnType<typeof scrape>>;
const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) =>
  after.value(name, labels) - before.value(name, labels);

describe('GET /metrics after real traffic', () => {
  test('payments, resolutions, operator transactions, jobs and HTTP requests are counted as they happen', async () => {
    const before = await scrape();

    // Two bets paid on the chain (the creation is the first), and one refused: below the minimum.
    const { market } = await m.createMarket(
      { title: 'metrics-yes', prediction: 'YES' },
      { player: 0, amountWei: parseEther('0.02') },
    );
    await m.joinMarket(market.id, { player: 2, prediction: 'NO', amountWei: parseEther('0.01') });
    const low = await m.postJoin(market.id, { player: 2, amountWei: parseEther('0.001') });
    expect(low.response.json().error.code).toBe('AMOUNT_TOO_LOW');

    const read = await t.app.inject({ method: 'GET', url: `/api/markets/${market.id}?ref=feed` });
    expect(read.statusCode).toBe(200);
    const missing = await t.app.inject({ method: 'GET', url: '/api/markets/2999999999' });
    expect(missing.statusCode).toBe(404);
    const nowhere = await t.app.inject({ method: 'GET', url: `/api/nowhere/${'0x'.padEnd(42, 'a')}?x=1` });
    expect(nowhere.statusCode).toBe(404);

    // The operator settles it YES after its deadline; the creator claims from the escrow once its
    // settlement's delay has passed (relayed by the operator key).
    await t.advanceTime(3601);
    const reason = 'Reported by the test.';
    const signed = await signOperatorAction(t, m.player(0), {
      action: 'market.resolve',
      marketId: market.id,
      result: 'YES',
      reason,
    });
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/markets/${market.id}/admin/resolve`,
      payload: { ...signed, result: 'YES', reason },
    });
    expect(resolved.statusCode).toBe(200);
    // The refused deposit is given back first (refundStake): the market's settlement waits for it,
    // trying again on its backoff.
    for (let round = 0; round < 3; round++) {
      await t.runJobs();
      await t.advanceTime(30);
    }
    await postEscrowSettlement(t, { marketId: market.id });
    await t.advanceTime(61);
    // The creator's 0.02 YES takes the NO pool less the fee, to the wei.
    const [owed] = computeMarketPayouts({
      bets: [
        { id: 1, side: 'YES', amountWei: parseEther('0.02') },
        { id: 2, side: 'NO', amountWei: parseEther('0.01') },
      ],
      result: 'YES',
      feeBps: t.config.fees.marketBps,
    }).payouts;
    const creator = await watchBalance(t.chain, m.player(0).account.address);
    const claim = await postClaim(t, m.player(0).account.address, { scope: 'markets' });
    expect(claim.body).toMatchObject({
      success: true,
      payoutStatus: 'confirmed',
      totalWei: String(owed?.returnWei),
    });
    expect(await creator.moved()).toBe(owed?.returnWei);
    const claimed = await scrape();
    // The claim is an operator relay on the escrow (claimMany), confirmed.
    expect(
      moved(before, claimed, 'bnbpredict_operator_transactions_total', { state: 'confirmed' }),
    ).toBeGreaterThan(0);

    // Every background job once; the price sampler stores a price for every coin; the refused deposit
    // is given back by the escrow (refundStake).
    await t.runJobs();
    await t.features.jobs.find((job) => job.name === 'reserves-check')?.run();
    const escrow = t.config.escrow.address;
    if (!escrow) throw new Error('the test app deploys an escrow');
    const escrowBalanceWei = await t.chain.publicClient.getBalance({ address: escrow });

    const after = await scrape();
    expect(moved(before, after, 'bnbpredict_payments_total', { outcome: 'accepted' })).toBe(2);
    expect(moved(before, after, 'bnbpredict_payments_total', { outcome: 'AMOUNT_TOO_LOW' })).toBe(1);
    expect(moved(before, after, 'bnbpredict_resolutions_total', { verdict: 'YES' })).toBe(1);
    // The refused deposit's refund is the escrow's own (refundStake), relayed by the operator key.
    expect(after.value('bnbpredict_operator_transactions_total', { state: 'failed' })).toBe(0);
    for (const job of t.features.jobs) {
      expect(moved(before, after, 'bnbpredict_job_runs_total', { job: job.name }), job.name).toBeGreaterThan(
        0,
      );
      expect(after.value('bnbpredict_job_failures_total', { job: job.name }), job.name).toBe(0);
    }

    // Requests by route template, whatever the URL's ids or query; a 404 without a route is unmatched.
    const requests = (labels: Record<string, string>) =>
      moved(before, after, 'http_request_duration_seconds_count', labels);
    expect(requests({ route: '/api/markets/:id', method: 'GET', status: '200' })).toBe(1);
    expect(requests({ route: '/api/markets/:id', method: 'GET', status: '404' })).toBe(1);
    expect(requests({ route: '/api/markets/:id/bets', method: 'POST', status: '201' })).toBe(1);
    expect(requests({ route: '/api/markets/:id/bets', method: 'POST', status: '400' })).toBe(1);
    expect(requests({ route: '/api/claims', method: 'POST', status: '200' })).toBe(1);
    expect(requests({ route: 'unmatched', method: 'GET', status: '404' })).toBe(1);

    // Gauges: the escrow balance the reserves check read, each coin's fresh price.
    expect(after.value('bnbpredict_escrow_balance_wei')).toBe(Number(escrowBalanceWei));
    expect(after.value('bnbpredict_reserves_covered')).toBe(1);
    expect(after.value('bnbpredict_operator_balance_wei')).toBeGreaterThan(0);
    const ages = after.samples.filter((sample) => sample.name === 'bnbpredict_oracle_price_age_seconds');
    expect(ages.map((sample) => sample.labels.symbol).sort()).toEqual(
      ['ADA', 'AVAX', 'BNB', 'BTC', 'DOGE', 'ETH', 'SOL', 'XRP'].sort(),
    );
    for (const age of ages) expect(age.value, age.labels.symbol).toBeLessThan(t.config.prices.maxAgeS);
    // The work waiting on the operator key and on the escrow, read from the database at the scrape:
    // the market's settlement is final, so none waits.
    for (const status of ['queued', 'signed', 'sent']) {
      const open = after.samples.filter(
        (sample) => sample.name === 'bnbpredict_operator_transactions' && sample.labels.status === status,
      );
      expect(open, status).toHaveLength(1);
    }
    expect(after.value('bnbpredict_operator_oldest_open_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.value('bnbpredict_escrow_settlements_oldest_pending_age_seconds')).toBe(0);

    // prom-client's process metrics, on this app's own registry.
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_version_info',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(after.has(name), name).toBe(true);
  });

  test("a settlement not final for an hour shows in the settlements' age gauge; one held for an operator's decision does not", async () => {
    const [row] = await t.db.select().from(payoutLists).orderBy(desc(payoutLists.id)).limit(1);
    if (!row) throw new Error('no settlement from the test above');
    try {
      await t.db
        .update(payoutLists)
        .set({ status: 'due', createdAt: new Date(Date.now() - 3_600_000) })
        .where(eq(payoutLists.id, row.id));
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the gauges' shared read
      const stuck = (await scrape()).value('bnbpredict_escrow_settlements_oldest_pending_age_seconds');
      expect(stuck).toBeGreaterThanOrEqual(3_600);
      expect(stuck).toBeLessThan(3_700);
      await t.db
        .update(payoutLists)
        .set({ nextAttemptAt: OPERATOR_DECIDES })
        .where(eq(payoutLists.id, row.id));
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await scrape()).value('bnbpredict_escrow_settlements_oldest_pending_age_seconds')).toBe(0);
    } finally {
      await t.db
        .update(payoutLists)
        .set({ status: row.status, createdAt: row.createdAt, nextAttemptAt: row.nextAttemptAt })
        .where(eq(payoutLists.id, row.id));
    }
  });

  test('the realtime gauge follows the open WebSocket connections', async () => {
    expect((await scrape()).value('bnbpredict_realtime_connections')).toBe(0);
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const socket = new WebSocket(`${address.replace('http', 'ws')}/api/realtime`);
    await once(socket, 'open');
    expect((await scrape()).value('bnbpredict_realtime_connections')).toBe(1);
    socket.close();
    await once(socket, 'close');
    // The server counts the close when its side of the socket hears it: poll briefly.
    await expect.poll(async () => (await scrape()).value('bnbpredict_realtime_connections')).toBe(0);
  });

  test("recordReserves sets whether the escrow covers what it owes, and the operator key's gas", async () => {
    t.metrics.recordReserves({ covered: true, operatorBalanceWei: parseEther('0.5') });
    let after = await scrape();
    expect(after.value('bnbpredict_reserves_covered')).toBe(1);
    expect(after.value('bnbpredict_operator_balance_wei')).toBe(0.5e18);
    // A 1-wei shortfall the float gauges would round away is still not covered: core's bigint verdict.
    t.metrics.recordReserves({ covered: false, operatorBalanceWei: null });
    after = await scrape();
    expect(after.value('bnbpredict_reserves_covered')).toBe(0);
    expect(after.value('bnbpredict_operator_balance_wei')).toBe(0.5e18);
  });

  test("the reserves check feeds the escrow gauges with GET /api/solvency's figures", async () => {
    await m.createMarket(
      { title: 'metrics-open', prediction: 'YES' },
      { player: 0, amountWei: parseEther('0.01') },
    );
    await t.features.jobs.find((job) => job.name === 'reserves-check')?.run();
    const solvency = (await t.app.inject({ method: 'GET', url: '/api/solvency' })).json() as {
      balanceWei: string;
      liabilitiesWei: string;
      covered: boolean;
    };
    const after = await scrape();
    expect(BigInt(solvency.liabilitiesWei)).toBeGreaterThan(0n);
    expect(after.value('bnbpredict_escrow_liabilities_wei')).toBe(Number(solvency.liabilitiesWei));
    expect(after.value('bnbpredict_escrow_balance_wei')).toBe(Number(solvency.balanceWei));
    expect(after.value('bnbpredict_reserves_covered')).toBe(solvency.covered ? 1 : 0);
  });

  test('no label value is an address, a transaction hash or a raw URL, whatever the requests were', async () => {
    const address = m.player(1).account.address;
    const hash = `0x${'ab'.repeat(32)}`;
    const hostile = [
      `/api/users/${address}/bets?limit=5`,
      `/api/users/${address.toLowerCase()}/claimable`,
      `/api/markets/123456?tx=${hash}`,
      `/api/tx/${hash}`,
      `/${address}`,
      '/market/42?ref=https://evil.example/%0a',
      '/api/markets/%2e%2e/%2e%2e/etc/passwd',
    ];
    for (const url of hostile) await t.app.inject({ method: 'GET', url });
    await t.app.inject({ method: 'PROPFIND', url: `/api/${hash}` });

    const { samples } = await scrape();
    const values = samples.flatMap((sample) => Object.values(sample.labels));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      expect(value, value).not.toMatch(/0x[0-9a-f]{40}/i);
      expect(value, value).not.toMatch(/[0-9a-f]{64}/i);
      expect(value, value).not.toMatch(/[?%]/);
    }
    const routes = new Set(samples.flatMap((sample) => (sample.labels.route ? [sample.labels.route] : [])));
    for (const route of routes) {
      // A template or `unmatched`: no segment is an id.
      if (route !== 'unmatched') expect(route, route).toMatch(/^\/[a-zA-Z0-9_\-/:.*]*$/);
      expect(
        route.split('/').some((segment) => /^\d+$/.test(segment)),
        route,
      ).toBe(false);
    }
    const methods = new Set(
      samples.flatMap((sample) => (sample.labels.method ? [sample.labels.method] : [])),
    );
    expect(
      [...methods].every((method) => /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|other)$/.test(method)),
    ).toBe(true);
  });

  test('the listener serves /metrics only, and only to GET and HEAD', async () => {
    const base = listener.url.replace(/\/metrics$/, '');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/health`)).status).toBe(404);
    expect((await fetch(listener.url, { method: 'POST' })).status).toBe(405);
    const head = await fetch(listener.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('METRICS_PORT and METRICS_HOST', () => {
  test('default to 127.0.0.1:9464; 0 turns the listener off; the API port is refused', async () => {
    // main.ts starts the listener through this very call.
    expect(loadConfig({}).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    const off = loadConfig({ METRICS_PORT: '0' });
    expect(off.metrics.port).toBe(0);
    expect(await startMetricsListener(off.metrics, t.metrics)).toBeNull();
    expect(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  test('the real server opens its own metrics listener, not on the API port, and closes it on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-metrics-'));
    const logFile = join(dataDir, 'server.log');
    const port = await findFreePort();
    const metricsPort = await findFreePort();
    const server = createServerProcess({
      port,
      logFile,
      env: {
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        RPC_URL: t.chain.rpcUrl,
        // Its own PGlite, even when the suite runs on PostgreSQL: this test is about the listener.
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        JOBS: 'false',
        LOG_LEVEL: 'info',
      },
    });
    try {
      await server.start();
      const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('process_resident_memory_bytes');
      // The public port has no /metrics: a 404, or the web app's page where apps/web/dist is built
      // (the server serves it by default); never the metrics.
      const publicMetrics = await fetch(`${server.baseUrl}/metrics`);
      expect(await publicMetrics.text()).not.toContain('process_resident_memory_bytes');
      expect(publicMetrics.headers.get('content-type') ?? '').not.toContain('version=0.0.4');
      await server.stop();
      await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
      expect(readFileSync(logFile, 'utf8')).toContain(`"metrics":"http://127.0.0.1:${metricsPort}/metrics"`);
    } finally {
      server.killNow();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // A server process starts (the compiled build, PGlite, migrations) in 10–40 s on a busy two-core machine.
  }, 180_000);
});

// Security review 2 (lows): the listener had no authentication; the Dockerfile bound it to 0.0.0.0.
describe('METRICS_TOKEN', () => {
  test('with a token, a scrape without it or with another one gets 401; with it, the figures', async () => {
    const token = 'a-long-metrics-token-0123456789';
    expect(loadConfig({ METRICS_TOKEN: token }).metrics.token).toBe(token);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    const guarded = await startMetricsListener(
      { host: '127.0.0.1', port: await findFreePort(), token },
      t.metrics,
    );
    if (!guarded) throw new Error('no listener');
    try {
      const bare = await fetch(guarded.url);
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toBe('Bearer');
      expect(await bare.text()).not.toMatch(/bnbpredict_/);
      for (const authorization of [`Bearer ${token}x`, `Basic ${token}`, 'Bearer ', token]) {
        const refused = await fetch(guarded.url, { headers: { authorization } });
        expect(refused.status, authorization).toBe(401);
      }
      const head = await fetch(guarded.url, { method: 'HEAD' });
      expect(head.status).toBe(401);
      const scraped = await fetch(guarded.url, { headers: { authorization: `Bearer ${token}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/bnbpredict_job_runs_total/);
    } finally {
      await guarded.close();
    }
  });

  test('the container image keeps the listener on loopback and does not expose its port', () => {
    const dockerfile = readFileSync(fileURLToPath(new URL('../../../Dockerfile', import.meta.url)), 'utf8');
    // The ENV lines, not the comments.
    const settings = [...dockerfile.matchAll(/^\s*(?:ENV\s+)?METRICS_HOST=(\S+)/gm)].map((m) => m[1]);
    expect(settings).toEqual(['127.0.0.1']);
    expect(dockerfile).not.toMatch(/^EXPOSE[^\n]*9464/m);
  });

  test('without a token the listener stays open to whoever reaches it (loopback by default)', async () => {
    expect(loadConfig({}).metrics.token).toBeUndefined();
    expect((await fetch(listener.url)).status).toBe(200);
  });
});
