import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../apps/server/src/dev/local-chain.ts';
import { startAiStub } from '../apps/server/test/support/ai-stub.ts';
import { buildWeb, startStack } from '../scripts/stack.ts';
import {
  judgeReply,
  STUB_ANALYSIS,
  type StubAnalysis,
  type StubVerdict,
  startFixtureSite,
  startSearchStub,
} from './support/evidence-stubs.ts';

/**
 * Starts the whole stack for the e2e suite: a fresh Hardhat node, the API server on a fresh
 * PGlite data dir, serving a fresh build of the web app. Short oracle rounds so a test can play
 * one through. The outside world on loopback: the AI judge, a SearXNG-shaped search and two news
 * sites it finds (decision 018). Returns the teardown.
 */
export default async function globalSetup() {
  if (!process.env.E2E_SKIP_BUILD) buildWeb();
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-e2e-'));
  // The AI vendor lies outside the product: a loopback OpenAI-compatible server stands in, and a
  // test sets its next verdict with POST {E2E_AI_URL}/__verdict (the analysis with /__analysis).
  const ai = await startAiStub();
  // The judge reads what a search finds (decision 018). Two sites, so quotes can come from two
  // (EVIDENCE_MIN_SOURCES=2): a site is its host, and the two hosts differ (127.0.0.1, localhost).
  const sites = [
    await startFixtureSite('Harbor Daily', '127.0.0.1'),
    await startFixtureSite('Lantern Wire', 'localhost'),
  ];
  const search = await startSearchStub(sites);
  let analysis: StubAnalysis = STUB_ANALYSIS;
  // A verdict settles only when it names its sources (docs/security.md "The AI judge"); a judge that reads
  // evidence gets the same verdict with quotes copied from the passages it was given.
  let verdict: StubVerdict = {
    verdict: 'YES',
    confidence: 95,
    analysis: 'The stub judge says YES.',
    sources: ['https://example.com/evidence'],
  };
  ai.reply((request) => {
    if (request.url.endsWith('/__verdict')) {
      if (typeof request.body === 'object' && request.body !== null) verdict = request.body as StubVerdict;
      return { status: 204, body: '' };
    }
    if (request.url.endsWith('/__analysis')) {
      if (typeof request.body === 'object' && request.body !== null) analysis = request.body as StubAnalysis;
      return { status: 204, body: '' };
    }
    return judgeReply(request, verdict, analysis);
  });
  const stack = await startStack({
    port: await findFreePort(),
    rpcPort: await findFreePort(),
    dataDir,
    build: false,
    env: {
      // Its own fresh PGlite, even when DATABASE_URL is set for the integration suite (as in CI):
      // a shared database would carry payments and payout nonces over from earlier runs.
      DATABASE_URL: '',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      // No metrics listener: 9464 belongs to an `npm start` that may run beside the suite.
      METRICS_PORT: '0',
      ROUND_INTERVAL_S: '60',
      BETTING_WINDOW_S: '30',
      OPERATOR_ADDRESSES: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      AI_BASE_URL: ai.url,
      AI_API_KEY: 'stub',
      // A short review window (decision 011): review-window.spec.ts flags a proposed verdict within it,
      // with a bond payment (40 s: a wallet connects in ~10 s on a busy CI machine);
      // the specs that wait for a verdict to settle wait these seconds more.
      RESOLUTION_REVIEW_WINDOW_S: '40',
      SEARCH_PROVIDER: 'searxng',
      SEARCH_URL: search.url,
      // Only these loopback hosts may be read (the SSRF guard refuses loopback otherwise).
      EVIDENCE_ALLOW_HOSTS: sites.map((site) => site.hostPort).join(','),
      EVIDENCE_MIN_SOURCES: '2',
    },
    log: (line) => {
      if (process.env.E2E_SERVER_LOG) process.stdout.write(`[server] ${line}\n`);
    },
  });
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_RPC_URL = stack.rpcUrl;
  process.env.E2E_AI_URL = ai.url;
  process.env.E2E_SEARCH_URL = search.url;
  return async () => {
    await stack.stop();
    await ai.close();
    await search.close();
    for (const site of sites) await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
