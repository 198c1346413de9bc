import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The dev chain's own config: it runs Prague, as BSC and the escrow's compiler settings do. */
const CONFIG = `${ROOT}chain/hardhat.config.ts`;
const STARTED = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * A Hardhat node (EDR, chain id 31337, the public dev mnemonic, on Prague: chain/hardhat.config.ts) on a
 * port the OS picks: resolves with its URL once it says it listens.
 */
export async function startHardhatNode(): Promise<{ rpcUrl: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      `${ROOT}node_modules/hardhat/dist/src/cli.js`,
      '--config',
      CONFIG,
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      '0',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Hardhat node not ready in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const match = STARTED.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`Hardhat node exited:\n${output}`)));
  });
  // Keep draining its output (a full pipe would stall the node).
  child.stdout.removeAllListeners('data').resume();
  child.stderr.removeAllListeners('data').resume();
  return {
    rpcUrl,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
