import '../runtime/require-supported-node.ts';
import { createTestClient, http } from 'viem';
import { type Clock, createChainClock, systemClock } from '../chain/clock.ts';
import { type Config, loadConfig } from '../config/config.ts';
import { loadConfigOrExit } from '../config/load-config-or-exit.ts';
import type { Database } from '../db/client.ts';
import { DataFolderHeldError } from '../db/data-folder-lock.ts';
import { openConfiguredDatabase, openDatabaseCopy } from '../db/open-configured-database.ts';
import { doctorCommandHelp, runDoctorCommand } from './doctor-command.ts';
import { guardianWatchCommand } from './guardian-watch-command.ts';
import { marketsCommands } from './markets-commands.ts';
import { type OpsCommand, printHelp, runOpsCommand } from './ops-commands.ts';
import { oracleCommands } from './oracle-commands.ts';
import { paymentsCommands } from './payments-commands.ts';
import { vaultCommands } from './vault-commands.ts';
import { vaultVerifyCommand } from './vault-verify-command.ts';

// `npm run ops -- <command>`: operator actions against the deployment's database, configured from
// the same environment as the server. With the embedded PGlite (no DATABASE_URL), PGlite's files are
// one process's at a time (decision 033): a command that changes state is refused while a server (or
// another command) holds DATA_DIR, and a read-only one reads a copy of it. On PostgreSQL they run
// beside running servers, which hear of every change (NOTIFY) and whose jobs read the database. The
// escrow's commands (vault:*) and the guardian's watcher (guardian:watch) open no database, so they
// run beside a running server; vault:verify needs no settings at all.

const OPS_COMMANDS: OpsCommand[] = [...marketsCommands, ...paymentsCommands, ...oracleCommands];

async function main(): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const argv = process.argv.slice(2);
  // Doctor reads the settings itself (a bad one is one of its findings) and never migrates.
  if (argv[0] === doctorCommandHelp.name) return runDoctorCommand(argv.slice(1), out);
  // Anyone checks a payout list with an RPC alone: the settings are read only for what it leaves out.
  if (argv[0] === vaultVerifyCommand.name)
    return runOpsCommand(argv, { out, settings: () => loadConfig() }, [vaultVerifyCommand]);
  const config = loadConfigOrExit();
  if (vaultCommands.some((command) => command.name === argv[0]))
    return runOpsCommand(argv, { config, out }, vaultCommands);
  // The guardian's watcher runs apart from the server with the guardian's key alone, and no database.
  if (argv[0] === guardianWatchCommand.name)
    return runOpsCommand(argv, { config, out }, [guardianWatchCommand]);
  const command = OPS_COMMANDS.find((each) => each.name === argv[0]);
  if (!command)
    return printHelp(
      argv[0],
      [...OPS_COMMANDS, ...vaultCommands, vaultVerifyCommand, guardianWatchCommand, doctorCommandHelp],
      out,
    );

  // npm runs workspace scripts inside apps/server, so a relative DATA_DIR is taken from where
  // `npm run ops` was typed (INIT_CWD), as the server takes it.
  const base = process.env.INIT_CWD ?? process.cwd();
  let database: Database;
  try {
    database = await openConfiguredDatabase(config.database, base, `ops ${command.name}`);
  } catch (error) {
    if (!(error instanceof DataFolderHeldError)) throw error;
    if (!command.readOnly) {
      out(
        `Refused: ${error.message}; nothing was changed: stop it first, or act through its signed operator API (docs/architecture.md "Operators").`,
      );
      return 1;
    }
    process.stderr.write(`Reading a copy taken now: ${error.message}.\n`);
    database = await openDatabaseCopy(config.database, base);
  }
  try {
    const clock = await openClock(config);
    return await runOpsCommand(argv, { db: database.db, config, clock, out }, OPS_COMMANDS);
  } finally {
    await database.close();
  }
}

/** The server's notion of now: on the local chain it follows chain time (CLOCK=chain). */
async function openClock(config: Config): Promise<Clock> {
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
