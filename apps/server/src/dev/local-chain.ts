import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export type LocalChain = { rpcUrl: string; port: number; process: ChildProcess; stop(): Promise<void> };

/**
 * Starts a Hardhat node (EDR, chain id 31337, the public dev mnemonic) from chain/hardhat.config.ts.
 * Port 0 picks a free one. Resolves once the node answers JSON-RPC.
 */
export async function startLocalChain(
  options: {
    port?: number;
    host?: string;
    log?: (line: string) => void;
    /**
     * The genesis block's time (unix seconds; chain/hardhat.config.ts reads it): the same time makes
     * the same genesis block, so a replayed chain's blocks are the saved ones (dev-chain-journal.ts).
     */
    genesisTime?: number;
  } = {},
) {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await findFreePort(host));
  const child = spawn(
    process.execPath,
    [`${ROOT}node_modules/hardhat/dist/src/cli.js`, 'node', '--hostname', host, '--port', String(port)],
    {
      cwd: `${ROOT}chain`,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NO_COLOR: '1',
        ...(options.genesisTime === undefined ? {} : { DEV_CHAIN_GENESIS_TIME: String(options.genesisTime) }),
      },
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    options.log?.(chunk.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const rpcUrl = `http://${host}:${port}`;
  const exited = once(child, 'exit').then(() => {
    throw new Error(`Hardhat node exited before it was ready:\n${output}`);
  });
  await Promise.race([waitForRpc(rpcUrl, 30_000), exited]);
  exited.catch(() => {});
  const chain: LocalChain = {
    rpcUrl,
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
  return chain;
}

export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('Could not find a free port');
  return address.port;
}

async function waitForRpc(rpcUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No JSON-RPC answer from ${rpcUrl} within ${timeoutMs} ms`);
}
