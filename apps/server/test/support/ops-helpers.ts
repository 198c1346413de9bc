import { type OpsCommand, runOpsCommand } from '../../src/ops/ops-commands.ts';
import type { TestApp } from './test-app.ts';

/** Runs one ops CLI command against the test app's database: its exit code and what it printed. */
export async function runOps(t: TestApp, commands: ReadonlyArray<OpsCommand>, ...argv: string[]) {
  const lines: string[] = [];
  const code = await runOpsCommand(
    argv,
    { db: t.db, config: t.config, clock: t.clock, out: (line) => lines.push(line) },
    commands,
  );
  return { code, output: lines.join('\n') };
}
