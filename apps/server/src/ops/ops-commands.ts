import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { PublicClient } from 'viem';
import type { Clock } from '../chain/clock.ts';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors/app-error.ts';

// docs/architecture.md "Operators": operator actions run from the ops CLI. One table of commands; each area adds
// its own (markets:*, payouts:*, payments:*, oracle:*) as a list in ops/ joined to OPS_COMMANDS in
// cli.ts; the escrow's (vault:*) need no database and run with a context of their own.

export type OpsContext = {
  db: Db;
  config: Config;
  clock: Clock;
  /** The chain read and written by commands that need one; absent → built from config.chain. */
  chain?: PublicClient;
  /** One line of output for the operator. */
  out: (line: string) => void;
};

export type OpsArgs = {
  positionals: string[];
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
};

/** What `help` lists of a command. */
export type OpsCommandHelp = { name: string; usage: string; summary: string };

/** A command of the table; commands that need no database (vault:*) take a context of their own. */
export type OpsCommand<Context = OpsContext> = OpsCommandHelp & {
  options?: NonNullable<ParseArgsConfig['options']>;
  /**
   * Reads only: beside a process that holds PGlite's folder it reads a copy of it (decision 033).
   * Every other command of the database changes state and is refused there.
   */
  readOnly?: true;
  run(context: Context, args: OpsArgs): Promise<void>;
};

/** A mistake in how the command was called: usage is printed, exit code 64 (EX_USAGE). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** What the chain or the state refused (a contract's revert, a missing contract): exit code 1. */
export class RefusedError extends Error {
  override name = 'RefusedError';
}

/**
 * A check that could not be made (an input that cannot be read, an RPC that does not answer): exit
 * code 2, so a script tells "it does not match" (1) from "it was not checked".
 */
export class CouldNotCheckError extends Error {
  override name = 'CouldNotCheckError';
}

/** Runs `argv` (command name first) against the table; answers the process exit code. */
export async function runOpsCommand<Context extends { out: (line: string) => void }>(
  argv: string[],
  context: Context,
  commands: ReadonlyArray<OpsCommand<Context>>,
): Promise<number> {
  const [name, ...rest] = argv;
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) return printHelp(name, commands, context.out);
  try {
    const parsed = parseArgs({
      args: rest,
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
    await command.run(context, { positionals: parsed.positionals, values: parsed.values });
    return 0;
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      context.out(
        `${error instanceof Error ? error.message : String(error)}\nUsage: npm run ops -- ${command.usage}`,
      );
      return 64;
    }
    if (error instanceof AppError || error instanceof RefusedError) {
      context.out(`Refused: ${error.message}`);
      return 1;
    }
    if (error instanceof CouldNotCheckError) {
      context.out(`Could not check: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

/** The command list; for `help`, no command, or an unknown one (then exit code 64). */
export function printHelp(
  name: string | undefined,
  commands: ReadonlyArray<OpsCommandHelp>,
  out: (line: string) => void,
): number {
  const unknown = name !== undefined && name !== 'help' && name !== '--help';
  if (unknown) out(`Unknown command: ${name}\n`);
  out('Usage: npm run ops -- <command> [arguments]\n\nCommands:');
  for (const each of commands) out(`  ${each.usage}\n      ${each.summary}`);
  return unknown ? 64 : 0;
}

function isParseArgsError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}
