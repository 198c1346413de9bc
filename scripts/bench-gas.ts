import { createEscrowWorld } from '../packages/escrow/test/escrow-fixture.ts';
import {
  GAS_TARGET,
  type GasReport,
  type GasRow,
  gasRowMet,
  measureEscrowGas,
} from '../packages/escrow/test/measure-gas.ts';
import { writeBetweenMarkers } from './bench-report.ts';

// `npm run bench`: the escrow contract's gas per money call, on a local Hardhat node of its
// own (Prague rules, as the dev chain): a deposit, a settlement (2 bettors and 100: the same) and a
// claim, against decision 025's targets. Gas is deterministic, so this figure does not depend on the
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

export function renderGasMarkdown(report: GasReport, loadAverage?: readonly number[]): string {
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
  if (loadAverage) {
    lines.push(
      '',
      `Load average when measured: ${loadAverage.map((value) => value.toFixed(2)).join(' / ')} (1 / 5 / 15 min; gas does not depend on it).`,
    );
  }
  return lines.join('\n');
}

export function countGasMissed(report: GasReport): number {
  return report.rows.filter((row) => row.target && !gasRowMet(row, report)).length;
}

/** Replaces the gas figures between their markers in docs/benchmarks.md. */
export function writeGasToDocs(report: GasReport, loadAverage: readonly number[]): void {
  writeBetweenMarkers('gas', renderGasMarkdown(report, loadAverage));
}
