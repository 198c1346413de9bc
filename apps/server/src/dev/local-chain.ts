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
  // Port 0 lets the node take a free port itself and say which: a port probed free here and bound
  // later by the node could be taken meanwhile by another process (a test file beside this one), and
  // this side would then wait on someone else's server.
  const requested = options.port || 0;
  const child = spawn(
    process.execPath,
    [`${ROOT}node_modules/hardhat/dist/src/cli.js`, 'node', '--hostname', host, '--port', String(requested)],
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
  let announced: ((port: number) => void) | undefined;
  const announcedPort = new Promise<number>((resolve) => {
    announced = resolve;
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    options.log?.(chunk.toString());
    const match = STARTED.exec(output);
    if (match?.[1]) announced?.(Number(match[1]));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let hasExited = false;
  const exited = once(child, 'exit').then(() => {
    hasExited = true;
    throw new Error(`Hardhat node exited before it was ready:\n${output}`);
  });
  exited.catch(() => {});
  const port = requested !== 0 ? requested : await Promise.race([announcedPort, exited]);
  const rpcUrl = `http://${host}:${port}`;
  await Promise.race([waitForRpc(rpcUrl, 30_000, () => hasExited), exited]);
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

/** How the node says where it listens: with port 0, the port it took. */
const STARTED = /Started HTTP and WebSocket JSON-RPC server at http:\/\/[^:\s]+:(\d+)/;

/** Asks until the node answers, it exits (then nothing more is sent to its port) or time runs out. */
async function waitForRpc(rpcUrl: string, timeoutMs: number, gone: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gone()) {
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
