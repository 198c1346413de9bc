import { describe, expect, test } from 'vitest';
import { defineCheck, failed, passed, runChecks, warned } from './run-checks.ts';

// The preflight runner (docs/operations.md "Preflight"): lines in the declared order, a check
// that needs a failed one is skipped and says so, a check that never answers fails.

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('runChecks', () => {
  test('prints one line per check in the order declared, whichever answers first', async () => {
    const lines: string[] = [];
    const slow = defineCheck('slow', () => later(passed('took a while'), 50), { timeoutMs: 5_000 });
    const quick = defineCheck('quick', async () => failed('broken'), { timeoutMs: 5_000 });
    const reports = await runChecks([slow, quick], { out: (line) => lines.push(line) });
    expect(lines).toEqual(['✔ slow: took a while', '✖ quick: broken']);
    expect(reports.map((report) => report.status)).toEqual(['passed', 'failed']);
  });

  test('a check whose need did not pass is skipped, naming it; its own run never starts', async () => {
    const lines: string[] = [];
    let ran = false;
    const base = defineCheck('base', async () => failed('down'), { timeoutMs: 5_000 });
    const middle = defineCheck('middle', async () => passed(), { timeoutMs: 5_000 });
    const dependent = defineCheck(
      'dependent',
      async () => {
        ran = true;
        return passed();
      },
      { timeoutMs: 5_000, needs: [middle, base] },
    );
    await runChecks([base, middle, dependent], { out: (line) => lines.push(line) });
    expect(lines).toEqual(['✖ base: down', '✔ middle', '- dependent: skipped, as "base" did not pass']);
    expect(ran).toBe(false);
  });

  test('a warning passes with ⚠ and its note; the checks that need it still run', async () => {
    const lines: string[] = [];
    const paused = defineCheck('paused', async () => warned('it is paused'), { timeoutMs: 5_000 });
    const after = defineCheck('after', async () => passed(), { timeoutMs: 5_000, needs: [paused] });
    const reports = await runChecks([paused, after], { out: (line) => lines.push(line) });
    expect(lines).toEqual(['⚠ paused: it is paused', '✔ after']);
    expect(reports.map((report) => report.status)).toEqual(['warned', 'passed']);
  });

  test('a check that throws or never answers fails with the reason', async () => {
    const lines: string[] = [];
    const throwing = defineCheck(
      'throwing',
      async () => {
        throw new Error('first line\nsecond line');
      },
      { timeoutMs: 5_000 },
    );
    const hanging = defineCheck('hanging', () => new Promise(() => {}), { timeoutMs: 20 });
    await runChecks([throwing, hanging], { out: (line) => lines.push(line) });
    expect(lines).toEqual(['✖ throwing: first line', '✖ hanging: no answer within 20 ms']);
  });

  test('reasons and notes go through the redactor', async () => {
    const lines: string[] = [];
    const redact = (text: string) => text.replaceAll('SECRET', '[redacted]');
    await runChecks(
      [
        defineCheck('a', async () => failed('https://rpc.example/SECRET failed'), { timeoutMs: 5_000 }),
        defineCheck('b', async () => passed('note with SECRET'), { timeoutMs: 5_000 }),
      ],
      { out: (line) => lines.push(line), redact },
    );
    expect(lines).toEqual(['✖ a: https://rpc.example/[redacted] failed', '✔ b: note with [redacted]']);
  });

  test('a check may only need one declared before it', async () => {
    const first = defineCheck('first', async () => passed(), { timeoutMs: 5_000 });
    const second = defineCheck('second', async () => passed(), { timeoutMs: 5_000, needs: [first] });
    await expect(runChecks([second, first], { out: () => {} })).rejects.toThrow(/declared after it/);
  });
});
