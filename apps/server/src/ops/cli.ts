import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTestClient, http } from 'viem';
import { type Clock, createChainClock, systemClock } from '../chain/clock.ts';
import { ConfigError, loadConfig } from '../config/config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { marketsCommands } from './markets-commands.ts';
import { type OpsCommand, printHelp, runOpsCommand } from './ops-commands.ts';
import { oracleCommands } from './oracle-commands.ts';
import { paymentsCommands } from './payments-commands.ts';
import { payoutsCommands } from './payouts-commands.ts';

// `npm run ops -- <command>`: operator actions against the deployment's database, configured from
// the same environment as the server. With the embedded PGlite (no DATABASE_URL), stop the server
// first: PGlite's files belong to one process at a time.

const OPS_COMMANDS: OpsCommand[] = [
  ...marketsCommands,
  ...payoutsCommands,
  ...paymentsCommands,
  ...oracleCommands,
];

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 78;
    }
    throw error;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const argv = process.argv.slice(2);
  if (!OPS_COMMANDS.some((command) => command.name === argv[0])) return printHelp(argv[0], OPS_COMMANDS, out);

  const { url, dataDir } = config.database;
  const database = url ? await openDatabase({ url }) : await openDatabase({ dataDir: pgliteDir(dataDir) });
  try {
    await migrate(database.db);
    const clock = await openClock(config);
    return await runOpsCommand(argv, { db: database.db, config, clock, out }, OPS_COMMANDS);
  } finally {
    await database.close();
  }
}

/**
 * The PGlite directory the server uses. npm runs workspace scripts inside apps/server, so a relative
 * DATA_DIR is taken from where `npm run ops` was typed (INIT_CWD), as the server takes it.
 */
function pgliteDir(dataDir: string): string {
  const base = process.env.INIT_CWD ?? process.cwd();
  const dir = resolve(base, join(dataDir, 'pglite'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The server's notion of now: on the local chain it follows chain time (CLOCK=chain). */
async function openClock(config: ReturnType<typeof loadConfig>): Promise<Clock> {
  if (config.clock !== 'chain') return systemClock;
  const clock = createChainClock(createTestClient({ mode: 'hardhat', transport: http(config.chain.rpcUrl) }));
  try {
    await clock.sync();
    return clock;
  } catch {
    process.stderr.write(`Could not read chain time from ${config.chain.rpcUrl}; using the system clock.\n`);
    return systemClock;
  }
}

process.exitCode = await main();
