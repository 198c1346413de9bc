import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { compiledServerCommand } from '../src/dev/compiled-server.ts';

// The real server as a child process (`node --import tsx apps/server/src/main.ts`, as
// scripts/stack.ts runs it), so kill -9 is a real crash: no shutdown hook, no flushed state.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const LogLineSchema = z.object({ level: z.number(), msg: z.string().optional() }).loose();

export type ServerErrorLog = { count: number; sample: string };

export function createServerProcess(options: { env: Record<string, string>; port: number; logFile: string }) {
  // The compiled server, as production runs it (built once here, not at every restart).
  const server = compiledServerCommand();
  let child: ChildProcess | null = null;
  let starts = 0;
  /** Error-level log lines by message (and job), so the report can say what failed and how often. */
  const errors = new Map<string, ServerErrorLog>();
  const baseUrl = `http://127.0.0.1:${options.port}`;

  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    appendFileSync(options.logFile, text);
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      const entry = LogLineSchema.safeParse(parsed);
      if (!entry.success || entry.data.level < 50) continue;
      const job = typeof entry.data.job === 'string' ? ` [${entry.data.job}]` : '';
      const key = `${entry.data.msg ?? '(no message)'}${job}`;
      const known = errors.get(key);
      if (known) known.count += 1;
      else errors.set(key, { count: 1, sample: line.slice(0, 1500) });
    }
  };

  const spawnOnce = () => {
    starts += 1;
    appendFileSync(
      options.logFile,
      `\n===== chaos: server start #${starts} at ${new Date().toISOString()} =====\n`,
    );
    const process_ = spawn(server.command, server.args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    process_.stdout?.on('data', collect);
    process_.stderr?.on('data', collect);
    child = process_;
    return process_;
  };

  const isRunning = () => child !== null && child.exitCode === null && child.signalCode === null;

  /** Starts the server and waits for /api/health; a start that dies (database down) is retried. */
  async function start(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const current = isRunning() ? child : spawnOnce();
      if (!current) continue;
      while (Date.now() < deadline && current.exitCode === null && current.signalCode === null) {
        if (await healthy()) return;
        await sleep(250);
      }
      if (current.exitCode !== null || current.signalCode !== null) await sleep(1000);
    }
    throw new Error(`the server did not become healthy within ${timeoutMs} ms (log: ${options.logFile})`);
  }

  async function healthy(): Promise<boolean> {
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(3000) });
      return response.ok;
    } catch {
      return false;
    }
  }

  /** kill -9: the process gets no chance to finish anything. */
  async function crash(): Promise<void> {
    const current = child;
    if (!current || !isRunning()) return;
    appendFileSync(options.logFile, `\n===== chaos: kill -9 at ${new Date().toISOString()} =====\n`);
    const exited = once(current, 'exit');
    current.kill('SIGKILL');
    await exited;
  }

  /** A graceful stop (SIGTERM), then SIGKILL if it hangs. */
  async function stop(): Promise<void> {
    const current = child;
    if (!current || !isRunning()) return;
    const exited = once(current, 'exit');
    current.kill('SIGTERM');
    const timer = setTimeout(() => current.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(timer);
  }

  return {
    baseUrl,
    start,
    crash,
    stop,
    isRunning,
    starts: () => starts,
    errors,
    /** For the exit handler: no awaiting, just make sure nothing is left behind. */
    killNow() {
      if (isRunning()) child?.kill('SIGKILL');
    },
  };
}

export type ServerProcess = ReturnType<typeof createServerProcess>;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
