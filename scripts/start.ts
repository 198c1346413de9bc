import { spawn } from 'node:child_process';
import { DEV_PLAYERS } from '../apps/server/src/config/dev-accounts.ts';
import { PublicDevHostError, startStack } from './stack.ts';

// `npm start`: everything offline on one machine. `npm run dev`: the same, with Vite's dev server
// (hot reload) on PORT in front of the API on PORT + 1.

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 8787);
const rpcPort = Number(process.env.RPC_PORT ?? 8545);
const dataDir = process.env.DATA_DIR ?? '.data';

const log = (line: string) => process.stdout.write(`${line}\n`);
const quietServerLog = (line: string) => {
  // pino JSON lines: show warnings and errors, keep the console readable.
  const level = /"level":(\d+)/.exec(line)?.[1];
  if (!level || Number(level) >= 40) log(`[server] ${line}`);
};

console.log(dev ? 'Starting the dev stack…' : 'Building the web app and starting the stack…');
const stack = await startStack({
  port: dev ? port + 1 : port,
  rpcPort,
  dataDir,
  build: !dev,
  log: quietServerLog,
  notice: (line) => console.log(line),
}).catch((error: unknown) => {
  if (!(error instanceof PublicDevHostError)) throw error;
  console.error(`Refusing to start:\n${error.message}`);
  process.exit(78);
});
const vite = dev
  ? spawn('npm', ['run', 'dev', '-w', 'apps/web', '--', '--port', String(port), '--strictPort'], {
      stdio: 'inherit',
    })
  : undefined;

const url = `http://127.0.0.1:${port}`;
console.log(`
  BNB Predict is running.

  App            ${url}
  API            ${url}/api  (OpenAPI: ${url}/api/openapi.json)
  Local chain    ${stack.rpcUrl}  (chain id 31337, Hardhat)
  Escrow         ${stack.escrowAddress}  (ESCROW_ADDRESS; every stake is deposited into it)
  MarketEscrow   ${stack.marketEscrowAddress}  (MARKET_ESCROW_ADDRESS; docs/decisions/034, no bet goes to it yet)
  Data           ${dataDir}/  (PGlite, and the dev chain's blocks: the next start replays them${stack.replayedBlocks ? `; ${stack.replayedBlocks} replayed now` : ''})
  Price feeds    a Chainlink-compatible feed per coin on the local chain, its rounds
                 published from a simulated walk (read as Chainlink's are on BSC)

  Connect MetaMask:
    1. Networks → Add a network manually:
         Network name  BNB Predict Local
         RPC URL       ${stack.rpcUrl}
         Chain ID      31337
         Currency      BNB
    2. Import one of these funded dev accounts (Account → Import account → private key).
       They are public test keys: never send real funds to them.
         Player 1  ${DEV_PLAYERS[0].address}
                   ${DEV_PLAYERS[0].privateKey}
         Player 2  ${DEV_PLAYERS[1].address}
                   ${DEV_PLAYERS[1].privateKey}
    3. Open ${url} and press Connect Wallet.

  Ctrl-C stops everything.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  vite?.kill('SIGTERM');
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
stack.server.on('exit', (code) => {
  if (!stopping) {
    console.error(`The server stopped unexpectedly (exit code ${code}).`);
    void stop().then(() => process.exit(1));
  }
});
