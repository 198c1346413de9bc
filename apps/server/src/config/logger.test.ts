import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from './config.ts';
import { createLogger, createRedactor, redactUrl } from './logger.ts';

// An RPC provider that refuses every call, on loopback: viem's error then carries the request URL.
const provider = createServer((_request, response) => response.writeHead(401).end('unauthorized'));
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const address = provider.address();
  if (!address || typeof address === 'string') throw new Error('the provider is not listening on a port');
  origin = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

const capture = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
};

describe('the server log', () => {
  test('an RPC error is logged without the key that RPC_URL carries in its path', async () => {
    const rpcUrl = `${origin}/v1/SECRETKEY123`;
    const config = loadConfig({
      RPC_URL: rpcUrl,
      PUBLIC_RPC_URL: origin,
      DATABASE_URL: 'postgres://app:DBPASSWORD@db/pm',
    });
    const { lines, stream } = capture();
    const logger = createLogger(config, stream);
    const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
    const error = await client.getBlockNumber().catch((caught: unknown) => caught);
    expect(String(error)).toContain('SECRETKEY123');
    logger.error({ err: error, rpcUrl, databaseUrl: config.database.url }, `RPC failed at ${rpcUrl}`);
    const written = lines.join('');
    expect(written).toContain('[redacted]');
    expect(written).not.toContain('SECRETKEY123');
    expect(written).not.toContain('DBPASSWORD');
  });

  test('the same filter serves other text: the AI, search, operator and escrow role keys are blanked', () => {
    const config = loadConfig({
      AI_BASE_URL: 'http://127.0.0.1:11434/v1',
      AI_API_KEY: 'sk-AIKEY456',
      SEARCH_PROVIDER: 'brave',
      SEARCH_API_KEY: 'BRAVEKEY789',
      ESCROW_ADMIN_PRIVATE_KEY: `0x${'a1'.repeat(32)}`,
      ESCROW_GUARDIAN_PRIVATE_KEY: `0x${'b2'.repeat(32)}`,
    });
    const redact = createRedactor(config);
    expect(redact('sk-AIKEY456 BRAVEKEY789 ok')).toBe('[redacted] [redacted] ok');
    expect(redact(`key ${config.operator.privateKey}`)).toBe('key [redacted]');
    expect(redact(`admin 0x${'a1'.repeat(32)} guardian 0x${'b2'.repeat(32)}`)).toBe(
      'admin [redacted] guardian [redacted]',
    );
  });

  test('a URL shown in a log line keeps only its origin', () => {
    expect(redactUrl('https://bsc-mainnet.nodereal.io/v1/SECRETKEY?x=1')).toBe(
      'https://bsc-mainnet.nodereal.io/[redacted]',
    );
  });
});
