import { createEscrowWorld } from '../packages/escrow/test/escrow-fixture.ts';
import { createMarketEscrowWorld } from '../packages/escrow/test/market-escrow-world.ts';
import {
  GAS_TARGET,
  type GasReport,
  type GasRow,
  gasRowMet,
  measureEscrowGas,
} from '../packages/escrow/test/measure-gas.ts';
import {
  type MarketGasReport,
  measureMarketEscrowGas,
} from '../packages/escrow/test/measure-market-escrow-gas.ts';
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

/** MarketEscrow's gas (decision 031) on a node of its own, with its dev feeds. */
export async function measureMarketGas(log: (line: string) => void): Promise<MarketGasReport> {
  const world = await createMarketEscrowWorld();
  try {
    log('measuring MarketEscrow gas on a local chain …');
    return await measureMarketEscrowGas(world);
  } finally {
    await world.stop();
  }
}

export function renderMarketGasMarkdown(report: MarketGasReport, loadAverage?: readonly number[]): string {
  const lines = ['| call | gas | target | |', '|---|---:|---|---|'];
  for (const row of report.rows) {
    const target = row.most ? `≤ ${row.most.toLocaleString('en')}` : '–';
    const verdict = row.most ? (row.gas <= row.most ? 'met' : 'MISSED') : '';
    lines.push(`| ${row.name} | ${row.gas.toLocaleString('en')} | ${target} | ${verdict} |`);
  }
  lines.push('');
  for (const row of report.flat) {
    const verdict = row.few === row.many ? 'the same' : 'MISSED: it grows';
    lines.push(
      `A ${row.name}'s gas beyond its calldata: ${row.few.toLocaleString('en')} with few bettors, ${row.many.toLocaleString('en')} with many (${verdict}).`,
    );
  }
  if (loadAverage) {
    lines.push(
      '',
      `Load average when measured: ${loadAverage.map((value) => value.toFixed(2)).join(' / ')} (1 / 5 / 15 min; gas does not depend on it).`,
    );
  }
  return lines.join('\n');
}

export function countMarketGasMissed(report: MarketGasReport): number {
  return (
    report.rows.filter((row) => row.most !== undefined && row.gas > row.most).length +
    report.flat.filter((row) => row.few !== row.many).length
  );
}

export function writeMarketGasToDocs(report: MarketGasReport, loadAverage: readonly number[]): void {
  writeBetweenMarkers('market-escrow-gas', renderMarketGasMarkdown(report, loadAverage));
}
