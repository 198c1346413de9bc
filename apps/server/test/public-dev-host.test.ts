import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { isLoopbackHost, publicDevHostRefusal } from '../src/config/public-dev-host.ts';
import { findFreePort } from '../src/dev/local-chain.ts';

// The dev stack is never served beyond loopback: `HOST=0.0.0.0 npm start` served it, POST /api/dev/price
// included, to the network. No test here binds a non-loopback address: the refusals happen before
// anything listens, and the spawned ones use 192.0.2.1 (TEST-NET-1, never this machine's), so even
// without the refusal nothing could be served beyond loopback.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
};

/** Runs a TypeScript entry point with tsx until it exits; its exit code and what it wrote. */
async function runEntry(path: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, output };
}

describe('the dev stack stays on loopback', () => {
  test('loopback hosts are told apart from every other address and name', () => {
    for (const host of ['127.0.0.1', '127.9.9.9', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '::ffff:0.0.0.0', ''])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  test('a non-loopback HOST on the local chain is refused, naming HOST and ALLOW_PUBLIC_DEV', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.10']) {
      const message = refusal({ HOST });
      expect(message).toMatch(/HOST: .* would serve the local dev stack/);
      expect(message).toMatch(/ALLOW_PUBLIC_DEV=1/);
    }
    expect(publicDevHostRefusal({ host: '0.0.0.0', chainId: 31337, allowPublicDev: false })).toMatch(
      /\/api\/dev\/price/,
    );
  });

  test('ALLOW_PUBLIC_DEV=1 lets the local chain listen on every interface, and loopback needs nothing', () => {
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_PUBLIC_DEV: '1' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({}).host).toBe('127.0.0.1');
  });

  test('off the local chain any HOST is accepted: there is no dev stack to publish', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      CHAIN_ID: '56',
      RPC_URL: 'https://bsc-dataseed.bnbchain.org',
      PRICE_FEED: 'chainlink',
      CHAINLINK_RPC_URL: 'https://bsc-prices.example',
    });
    expect(config.host).toBe('0.0.0.0');
  });

  test('the server (npm run serve) on the local chain with a public HOST exits 78 before it reads the chain', async () => {
    const closedRpc = `http://127.0.0.1:${await findFreePort()}`;
    const { code, output } = await runEntry('apps/server/src/main.ts', {
      HOST: '192.0.2.1',
      RPC_URL: closedRpc,
      METRICS_PORT: '0',
    });
    expect(output).toMatch(/HOST: 192\.0\.2\.1 would serve the local dev stack/);
    expect(code).toBe(78);
  });

  test('npm start with a public HOST refuses before it builds or starts anything', async () => {
    const [port, rpcPort] = [await findFreePort(), await findFreePort()];
    const { code, output } = await runEntry('scripts/start.ts', {
      HOST: '192.0.2.1',
      PORT: String(port),
      RPC_PORT: String(rpcPort),
    });
    expect(output).toMatch(/Refusing to start:\n\s+HOST: 192\.0\.2\.1 would serve the local dev stack/);
    expect(output).not.toMatch(/is running/);
    expect(code).toBe(78);
  });
});
