import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../apps/server/src/dev/local-chain.ts';
import { completion, startAiStub } from '../apps/server/test/support/ai-stub.ts';
import { buildWeb, startStack } from '../scripts/stack.ts';

/**
 * Starts the whole stack for the e2e suite: a fresh Hardhat node, the API server on a fresh
 * PGlite data dir, serving a fresh build of the web app. Short oracle rounds so a test can play
 * one through. Returns the teardown.
 */
export default async function globalSetup() {
  if (!process.env.E2E_SKIP_BUILD) buildWeb();
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-e2e-'));
  // The AI vendor lies outside the product: a loopback OpenAI-compatible server stands in, and a
  // test sets its next verdict with POST {E2E_AI_URL}/__verdict.
  const ai = await startAiStub();
  // A verdict settles only when it names its sources (security review F20).
  let verdict: object = {
    verdict: 'YES',
    confidence: 95,
    analysis: 'The stub judge says YES.',
    sources: ['https://example.com/evidence'],
  };
  ai.reply((request) => {
    if (request.url.endsWith('/__verdict')) {
      if (typeof request.body === 'object' && request.body !== null) verdict = request.body;
      return { status: 204, body: '' };
    }
    return completion(verdict);
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
      ROUND_INTERVAL_S: '60',
      BETTING_WINDOW_S: '30',
      OPERATOR_ADDRESSES: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
      AI_BASE_URL: ai.url,
      AI_API_KEY: 'stub',
      // A short review window (issue 11): review-window.spec.ts flags a proposed verdict within it,
      // with a bond payment since issue 22 (40 s: a wallet connects in ~10 s on a busy CI machine);
      // the specs that wait for a verdict to settle wait these seconds more.
      RESOLUTION_REVIEW_WINDOW_S: '40',
    },
    log: (line) => {
      if (process.env.E2E_SERVER_LOG) process.stdout.write(`[server] ${line}\n`);
    },
  });
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_RPC_URL = stack.rpcUrl;
  process.env.E2E_AI_URL = ai.url;
  return async () => {
    await stack.stop();
    await ai.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
