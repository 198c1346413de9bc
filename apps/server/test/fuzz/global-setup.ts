import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { emptyCounts, FuzzCountsSchema, formatCounts } from './support/fuzz-report.ts';

/**
 * Gives each fuzz file a directory for its counts, and at the end prints the run's total
 * (`fuzz: N cases, …`) and, under FUZZ_SUMMARY_FILE, writes it as JSON for `npm test`'s summary.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'pm-fuzz-'));
  project.provide('fuzzReportDir', dir);
  return () => {
    const total = emptyCounts('all');
    for (const name of readdirSync(dir)) {
      const counts = FuzzCountsSchema.parse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      total.cases += counts.cases;
      total.status2xx += counts.status2xx;
      total.status4xx += counts.status4xx;
      total.status5xx += counts.status5xx;
      total.statusOther += counts.statusOther;
      total.wsCases += counts.wsCases;
      total.wsIgnored += counts.wsIgnored;
      total.violations += counts.violations;
      for (const [code, n] of Object.entries(counts.wsClosed))
        total.wsClosed[code] = (total.wsClosed[code] ?? 0) + n;
    }
    console.log(`\n${formatCounts('fuzz', total)}\n`);
    const summaryFile = process.env.FUZZ_SUMMARY_FILE;
    if (summaryFile) writeFileSync(summaryFile, JSON.stringify(total));
    rmSync(dir, { recursive: true, force: true });
  };
}
