import { describeError } from '../errors/describe-error.ts';

// The preflight's runner (`npm run ops -- doctor`, docs/operations.md "Preflight"): every
// check starts at once unless it needs another, each is bounded in time, and one line per check is
// printed in the order they were declared: `✔ <check>`, `⚠ <check>: <note>` (passed, with something
// to act on), `✖ <check>: <reason>`, or `- <check>: skipped …` when a check it needs did not pass.

/**
 * What a check found: passed (with a note worth reading, maybe, or a warning: the deployment works,
 * but something needs an operator), or failed with the reason.
 */
export type CheckOutcome = { ok: true; note?: string; warning?: true } | { ok: false; reason: string };

export type DoctorCheck = {
  title: string;
  /** Checks that must pass first; when one does not, this one is skipped (and says which). */
  needs: readonly DoctorCheck[];
  /** Longest the check may take in all; past it, it fails. */
  timeoutMs: number;
  run(): Promise<CheckOutcome>;
};

export type CheckStatus = 'passed' | 'warned' | 'failed' | 'skipped';
export type CheckReport = { title: string; status: CheckStatus; line: string };

export const passed = (note?: string): CheckOutcome =>
  note === undefined ? { ok: true } : { ok: true, note };
export const failed = (reason: string): CheckOutcome => ({ ok: false, reason });
/** Passed, and says what needs doing: a warning never fails doctor, nor skips what needs the check. */
export const warned = (note: string): CheckOutcome => ({ ok: true, note, warning: true });

export function defineCheck(
  title: string,
  run: () => Promise<CheckOutcome>,
  options: { needs?: readonly DoctorCheck[]; timeoutMs: number },
): DoctorCheck {
  return { title, run, needs: options.needs ?? [], timeoutMs: options.timeoutMs };
}

/**
 * Runs `checks` (each needed check must come before the checks that need it), printing each line
 * through `out` as soon as it and every line before it are known. `redact` filters every reason
 * and note (an error may quote a URL that carries a key). Answers the reports in order.
 */
export async function runChecks(
  checks: readonly DoctorCheck[],
  options: { out: (line: string) => void; redact?: (text: string) => string },
): Promise<CheckReport[]> {
  const redact = options.redact ?? ((text: string) => text);
  const results = new Map<DoctorCheck, Promise<CheckReport>>();
  for (const check of checks) {
    for (const need of check.needs) {
      if (!results.has(need)) throw new Error(`"${check.title}" needs "${need.title}", declared after it`);
    }
    results.set(check, settle(check, results, redact));
  }
  const reports: CheckReport[] = [];
  for (const check of checks) {
    const report = await (results.get(check) as Promise<CheckReport>);
    options.out(report.line);
    reports.push(report);
  }
  return reports;
}

async function settle(
  check: DoctorCheck,
  results: ReadonlyMap<DoctorCheck, Promise<CheckReport>>,
  redact: (text: string) => string,
): Promise<CheckReport> {
  for (const need of check.needs) {
    const report = await (results.get(need) as Promise<CheckReport>);
    if (report.status === 'failed' || report.status === 'skipped') {
      return {
        title: check.title,
        status: 'skipped',
        line: `- ${check.title}: skipped, as "${need.title}" did not pass`,
      };
    }
  }
  const outcome = await withTimeout(check.run(), check.timeoutMs).catch(
    (error: unknown): CheckOutcome => failed(describeError(error)),
  );
  if (outcome.ok) {
    const note = outcome.note === undefined ? '' : `: ${redact(outcome.note)}`;
    if (outcome.warning) return { title: check.title, status: 'warned', line: `⚠ ${check.title}${note}` };
    return { title: check.title, status: 'passed', line: `✔ ${check.title}${note}` };
  }
  return { title: check.title, status: 'failed', line: `✖ ${check.title}: ${redact(outcome.reason)}` };
}

class CheckTimeoutError extends Error {
  override name = 'CheckTimeoutError';
}

/** The check's own calls have shorter timeouts; this is the backstop that keeps doctor from hanging. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(`no answer within ${formatSeconds(ms)}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
