import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

// `npm run typecheck`: `tsc -p` of every TypeScript project, as many at once as there are cores.
// Each tsc is one thread and each project is checked on its own (with its own compiler options),
// so on CI's two cores two at a time take about half the wall time of one after the other. Each
// project's output is printed whole once it is done, so two never interleave.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

/** The longest first (apps/server ~45 s on an idle core, pay-and-post ~7 s), so the last to start is short. */
const PROJECTS = [
  'apps/server',
  'scripts',
  'packages/escrow',
  'apps/web',
  'e2e',
  'packages/core',
  'packages/pay-and-post',
  'examples',
] as const;

function check(project: string): Promise<{ project: string; ok: boolean; output: string; ms: number }> {
  const startedAt = Date.now();
  const pretty = process.stdout.isTTY ? ['--pretty'] : [];
  const child = spawn(process.execPath, [TSC, '-p', project, ...pretty], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ project, ok: false, output: String(error), ms: 0 }));
    child.once('close', (code) => resolve({ project, ok: code === 0, output, ms: Date.now() - startedAt }));
  });
}

async function main() {
  const queue: string[] = [...PROJECTS];
  const failed: string[] = [];
  const worker = async () => {
    for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
      const result = await check(project);
      if (result.output.trim())
        process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
      if (!result.ok) failed.push(result.project);
      if (process.env.TYPECHECK_TIMES === '1') console.log(`tsc -p ${result.project}: ${result.ms} ms`);
    }
  };
  const lanes = Math.max(1, Math.min(availableParallelism(), PROJECTS.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  if (failed.length > 0) {
    console.error(`Type errors in ${failed.join(', ')}`);
    process.exit(1);
  }
}

await main();
