import fc from 'fast-check';
import { expect } from 'vitest';
import type { HttpCase, HttpFuzzer } from './http-fuzzer.ts';

/**
 * How many cases a property runs: `defaultRuns`, scaled by FUZZ_SCALE (e.g. 0.1 for a quick look,
 * 10 for a long hunt). FUZZ_SEED replays a run (fast-check prints the seed of a failing one).
 */
export function fuzzParameters(defaultRuns: number): fc.Parameters<unknown> {
  const scale = Number(process.env.FUZZ_SCALE ?? 1);
  const seed = process.env.FUZZ_SEED;
  return {
    numRuns: Math.max(1, Math.round(defaultRuns * scale)),
    ...(seed === undefined ? {} : { seed: Number(seed) }),
  };
}

/** Sends `runs` generated cases through the fuzzer, then fails with every distinct violation found. */
export async function fuzzHttp(
  fuzzer: HttpFuzzer,
  cases: fc.Arbitrary<HttpCase>,
  runs: number,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(cases, async (c) => {
      await fuzzer.send(c);
    }),
    fuzzParameters(runs),
  );
  const violations = fuzzer.takeViolations();
  expect(violations, violations.join('\n\n')).toHaveLength(0);
}
