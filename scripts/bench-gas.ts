import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEscrowWorld } from '../packages/escrow/test/escrow-fixture.ts';
import {
  GAS_TARGET,
  type GasReport,
  type GasRow,
  gasRowMet,
  measureEscrowGas,
} from '../packages/escrow/test/measure-gas.ts';

// `npm run bench` (issue 29): the escrow contract's gas per money call, on a local Hardhat node of its
// own (Prague rules, as the dev chain): a deposit, a settlement (2 bettors and 100: the same) and a
// claim, against issue 29's targets. Gas is deterministic, so this figure does not depend on the
// machine's load. Needs no database: `npm run bench -- --only gas`.

export async function measureGas(log: (line: string) => void): Promise<GasReport> {
  const world = await createEscrowWorld();
  try {
    log('measuring the escrow contract gas on a local chain …');
    return await measureEscrowGas(world);
  } finally {
    await world.stop();
  }
}

function targetText(row: GasRow): string {
  if (row.target === 'max') return `≤ ${GAS_TARGET.toLocaleString('en')}`;
  if (row.target === 'flat') return 'the same as 2 bettors (beyond calldata)';
  return '–';
}

export function renderGasMarkdown(report: GasReport): string {
  const lines = ['| call | gas | target | |', '|---|---:|---|---|'];
  for (const row of report.rows) {
    const verdict = row.target ? (gasRowMet(row, report) ? 'met' : 'MISSED') : '';
    lines.push(`| ${row.name} | ${row.gas.toLocaleString('en')} | ${targetText(row)} | ${verdict} |`);
  }
  const { small, large } = report.settleExecution;
  lines.push(
    '',
    `A settlement's gas beyond its calldata: ${small.toLocaleString('en')} for 2 bettors, ${large.toLocaleString('en')} for 100.`,
  );
  return lines.join('\n');
}

export function countGasMissed(report: GasReport): number {
  return report.rows.filter((row) => row.target && !gasRowMet(row, report)).length;
}

const DOCS = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const START = '<!-- bench:gas:start -->';
const END = '<!-- bench:gas:end -->';

/** Replaces the gas figures between their markers in docs/benchmarks.md (left alone when absent). */
export function writeGasToDocs(report: GasReport): void {
  const text = readFileSync(DOCS, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return;
  const stamp = `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
  writeFileSync(
    DOCS,
    `${text.slice(0, start + START.length)}\n${stamp}\n\n${renderGasMarkdown(report)}\n${text.slice(end)}`,
  );
}
