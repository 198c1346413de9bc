import { ERROR_CODES, ErrorBodySchema } from '@pm/core/contract/errors';
import type { TestApp } from '../../support/test-app.ts';
import { createDbFingerprint } from './db-fingerprint.ts';
import { createViolationLog, emptyCounts, type FuzzCounts } from './fuzz-report.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** One request of the fuzz suite, and what it may answer besides a 4xx. */
export type HttpCase = {
  /** The endpoint it aims at, for the report. */
  route: string;
  method: HttpMethod;
  url: string;
  contentType?: string | undefined;
  payload?: string | Buffer | undefined;
  /** The 2xx statuses its contract lists for this request (none: it must be refused). */
  allowed2xx?: readonly number[];
  /** Whether a 2xx of this request may change the database (GET nonce and the dev price do). */
  mayWrite?: boolean;
};

const KNOWN_CODES = new Set<string>(ERROR_CODES);

const preview = (value: string | Buffer | undefined, max = 240): string => {
  if (value === undefined) return '(none)';
  const text = typeof value === 'string' ? value : `<${value.length} bytes> ${value.toString('hex')}`;
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…(${text.length})` : text);
};

const describe = (c: HttpCase) =>
  `${c.method} ${c.url.length > 300 ? `${c.url.slice(0, 300)}…` : c.url} content-type=${c.contentType ?? '(none)'} body=${preview(c.payload)}`;

/**
 * Sends fuzz cases to the real app and checks each answer: never a 5xx; a 4xx has the API's error
 * shape with a known code; a 2xx only where the contract lists one; and the database is exactly
 * as before unless the request was one that may write. Violations are collected (one example of
 * each kind) rather than thrown, so one run reports every distinct bug, not just the first.
 */
export function createHttpFuzzer(t: TestApp, file: string, drainStacks: () => string[]) {
  const counts: FuzzCounts = emptyCounts(file);
  const violations = createViolationLog();
  const fingerprint = createDbFingerprint(t.db);
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).join(',');
  let before: string | undefined;

  async function send(c: HttpCase): Promise<void> {
    before ??= await fingerprint();
    drainStacks();
    counts.cases += 1;
    const headers: Record<string, string> = {};
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    let status: number;
    let body: string;
    try {
      const response = await t.app.inject({
        method: c.method,
        url: c.url,
        headers,
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      status = response.statusCode;
      body = response.body;
    } catch (error) {
      counts.statusOther += 1;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      violations.add(`inject ${c.route} ${String(error)}`, {
        rule: `the request could not be sent or answered (${c.route})`,
        request: describe(c),
        answer: message,
      });
      return;
    }
    const request = describe(c);
    const answer = `${status} ${preview(body, 400)}`;
    if (status >= 500) {
      counts.status5xx += 1;
      const stack = drainStacks().join('\n---\n').split('\n').slice(0, 12).join('\n    ');
      violations.add(`5xx ${c.route} ${status} ${stack.split('\n')[0]}`, {
        rule: `5xx from ${c.route}`,
        request,
        answer,
        stack,
      });
    } else if (status >= 400) {
      counts.status4xx += 1;
      if (c.method !== 'HEAD') checkErrorShape(c, status, body, request, answer);
    } else if (status >= 200 && status < 300) {
      counts.status2xx += 1;
      if (!c.allowed2xx?.includes(status)) {
        violations.add(`2xx ${c.route} ${status}`, {
          rule: `${c.route} answered ${status}, which this request should never get`,
          request,
          answer,
        });
      }
    } else {
      counts.statusOther += 1;
      violations.add(`status ${c.route} ${status}`, { rule: `unexpected status ${status}`, request, answer });
    }

    const after = await fingerprint();
    const wrote = status >= 200 && status < 300 && c.mayWrite;
    if (after !== before && !wrote) {
      violations.add(`db ${c.route} ${status}`, {
        rule: `the database changed after ${c.route} answered ${status}`,
        request,
        answer: `${answer}\n  before:  ${before}\n  after:   ${after}`,
      });
    }
    before = after;
    if (Object.getOwnPropertyNames(Object.prototype).join(',') !== prototypeKeys) {
      violations.add(`prototype ${c.route}`, { rule: 'Object.prototype was polluted', request, answer });
    }
  }

  function checkErrorShape(c: HttpCase, status: number, body: string, request: string, answer: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const shape = ErrorBodySchema.safeParse(parsed);
    if (!shape.success || !KNOWN_CODES.has(shape.data.error.code) || shape.data.error.message === '') {
      violations.add(`shape ${c.route} ${status}`, {
        rule: `${c.route} answered ${status} without the error shape {"error":{"code","message"}} and a known code`,
        request,
        answer,
      });
    }
  }

  /** The distinct violations since the last call (each also counted in the file's counts). */
  function takeViolations(): string[] {
    const list = violations.take();
    counts.violations += list.length;
    return list;
  }

  return { send, counts, takeViolations };
}

export type HttpFuzzer = ReturnType<typeof createHttpFuzzer>;
