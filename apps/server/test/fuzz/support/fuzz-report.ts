import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { inject } from 'vitest';
import { z } from 'zod';

/** What one fuzz file did, written as JSON for the run's summary (global-setup.ts, scripts/test.ts). */
export const FuzzCountsSchema = z.object({
  file: z.string(),
  cases: z.number(),
  status2xx: z.number(),
  status4xx: z.number(),
  status5xx: z.number(),
  /** HTTP requests (`cases`) by status; anything else is 1xx/3xx, or a transport failure. */
  statusOther: z.number(),
  wsCases: z.number(),
  wsIgnored: z.number(),
  /** WebSocket close codes the server used, with how often. */
  wsClosed: z.record(z.string(), z.number()),
  violations: z.number(),
});
export type FuzzCounts = z.infer<typeof FuzzCountsSchema>;

export function emptyCounts(file: string): FuzzCounts {
  return {
    file,
    cases: 0,
    status2xx: 0,
    status4xx: 0,
    status5xx: 0,
    statusOther: 0,
    wsCases: 0,
    wsIgnored: 0,
    wsClosed: {},
    violations: 0,
  };
}

/**
 * `fuzz: 10650 cases, 9800 4xx, 350 2xx, 0 5xx, 500 WebSocket (420 ignored, 80 closed 1009); 0 violations`:
 * the cases are HTTP requests and WebSocket cases together.
 */
export function formatCounts(label: string, counts: Omit<FuzzCounts, 'file'>): string {
  const other = counts.statusOther ? `, ${counts.statusOther} other` : '';
  const closed = Object.entries(counts.wsClosed).map(([code, n]) => `, ${n} closed ${code}`);
  const ws = counts.wsCases
    ? `, ${counts.wsCases} WebSocket (${counts.wsIgnored} ignored${closed.join('')})`
    : '';
  return (
    `${label}: ${counts.cases + counts.wsCases} cases, ${counts.status4xx} 4xx, ${counts.status2xx} 2xx, ` +
    `${counts.status5xx} 5xx${other}${ws}; ${counts.violations} violations`
  );
}

/** Prints this file's counts and leaves them where the global teardown adds them up. */
export function writeCounts(counts: FuzzCounts): void {
  console.log(formatCounts(`fuzz[${counts.file}]`, counts));
  const dir = inject('fuzzReportDir');
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${counts.file}.json`), JSON.stringify(counts));
}

/** A broken rule, with the request that broke it: what the final report lists. */
export type Violation = {
  rule: string;
  request: string;
  answer: string;
  stack?: string;
};

/** Keeps one example per distinct violation (rule + where + answer), counting the repeats. */
export function createViolationLog() {
  const seen = new Map<string, Violation & { times: number }>();
  return {
    add(key: string, violation: Violation) {
      const known = seen.get(key);
      if (known) known.times += 1;
      else seen.set(key, { ...violation, times: 1 });
    },
    /** The distinct violations since the last call, each printed with its request, answer and stack. */
    take(): string[] {
      const all = [...seen.values()].map(
        (v) =>
          `${v.rule} (×${v.times})\n  request: ${v.request}\n  answer:  ${v.answer}${v.stack ? `\n  stack:   ${v.stack}` : ''}`,
      );
      seen.clear();
      return all;
    },
  };
}

const LogLineSchema = z.object({
  msg: z.string().optional(),
  err: z.object({ stack: z.string() }).optional(),
});

/**
 * A logger at level error that keeps what the server logs about failed requests, so a 5xx is
 * reported with the stack behind it (the client only ever sees a generic message).
 */
export function createErrorCapture() {
  const stacks: string[] = [];
  const logger = pino(
    { level: 'error' },
    {
      write(line: string) {
        const parsed = LogLineSchema.safeParse(JSON.parse(line));
        if (parsed.success && parsed.data.err) stacks.push(parsed.data.err.stack);
      },
    },
  );
  return {
    logger,
    /** The stacks logged since the last call, oldest first. */
    drain(): string[] {
      return stacks.splice(0, stacks.length);
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each fuzz file writes its counts (set by test/fuzz/global-setup.ts). */
    fuzzReportDir: string | undefined;
  }
}
