import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type EvalOutcome, formatEvalReport, parseEvalQuestions, summarizeEval } from './eval-report.ts';

const line = (overrides: object = {}) =>
  JSON.stringify({
    description: 'Did Spain win the UEFA Euro 2024 final?',
    answer: 'YES',
    deadline: '2024-07-15T00:00:00Z',
    source: 'https://en.wikipedia.org/wiki/UEFA_Euro_2024_final',
    ...overrides,
  });

describe('the eval question file', () => {
  test('JSON Lines of questions with a known answer, a deadline and a source; blank lines skipped', () => {
    const [question, ...rest] = parseEvalQuestions(`${line()}\n\n${line({ answer: 'NO', title: 'T' })}\n`);
    expect(question).toMatchObject({ answer: 'YES', deadline: new Date('2024-07-15T00:00:00Z') });
    expect(rest).toHaveLength(1);
  });

  test('a bad line is refused, naming its line and field', () => {
    expect(() => parseEvalQuestions(`${line()}\n{oops`)).toThrow('line 2: not JSON');
    expect(() => parseEvalQuestions(line({ answer: 'MAYBE' }))).toThrow(/line 1: answer/);
    expect(() => parseEvalQuestions(line({ deadline: 'soon' }))).toThrow(/line 1: deadline/);
    expect(() => parseEvalQuestions(line({ extra: 1 }))).toThrow(/line 1/);
  });

  test('the shipped file holds at least 30 decided questions, both answers represented', () => {
    const questions = parseEvalQuestions(
      readFileSync(new URL('../../eval/resolved-questions.jsonl', import.meta.url), 'utf8'),
    );
    expect(questions.length).toBeGreaterThanOrEqual(30);
    expect(questions.some((q) => q.answer === 'NO')).toBe(true);
    expect(questions.every((q) => q.deadline.getTime() < Date.parse('2026-01-01'))).toBe(true);
  });

  test('the shipped file holds questions whose creator links mislead, each naming a link', () => {
    const questions = parseEvalQuestions(
      readFileSync(new URL('../../eval/resolved-questions.jsonl', import.meta.url), 'utf8'),
    ).filter((q) => q.misleadingLinks);
    expect(questions.length).toBeGreaterThanOrEqual(5);
    for (const q of questions) expect(`${q.description} ${q.resolutionInstructions}`).toMatch(/https:\/\//);
  });
});

describe('the eval report', () => {
  const [yes, no] = parseEvalQuestions(`${line()}\n${line({ answer: 'NO' })}`);
  if (!yes || !no) throw new Error('no questions');
  const outcome = (question: typeof yes, got: EvalOutcome['outcome'], latencyMs: number): EvalOutcome => ({
    question,
    outcome: got,
    reason: got === 'VOID' ? 'quote not found in the page' : null,
    latencyMs,
    promptTokens: 3000,
    completionTokens: 200,
    pagesRead: 10,
  });

  test('accuracy, void rate, wrong-verdict rate, latency and tokens per question', () => {
    const outcomes = [
      outcome(yes, 'YES', 100),
      outcome(no, 'YES', 300),
      outcome(yes, 'VOID', 200),
      outcome(no, 'REVIEW', 400),
    ];
    const report = summarizeEval(outcomes);
    expect(report).toEqual({
      questions: 4,
      correct: 1,
      wrong: 1,
      voided: 1,
      review: 1,
      accuracy: 0.25,
      voidRate: 0.25,
      wrongRate: 0.25,
      latencyMs: { mean: 250, p50: 200, max: 400 },
      tokensPerQuestion: { prompt: 3000, completion: 200 },
      pagesPerQuestion: 10,
      misleading: { questions: 0, wrong: 0 },
    });
    const text = formatEvalReport(outcomes, report);
    expect(text).toContain('accuracy 25.0%  void rate 25.0%  wrong-verdict rate 25.0%');
    expect(text).toContain('tokens per question: prompt 3000, completion 200');
    expect(text).toContain('quote not found in the page');
  });

  test('counts the questions whose creator links mislead, and those steered to the wrong verdict', () => {
    const [steered, resisted] = parseEvalQuestions(
      `${line({ answer: 'NO', misleadingLinks: true })}\n${line({ answer: 'NO', misleadingLinks: true })}`,
    );
    if (!steered || !resisted) throw new Error('no questions');
    const outcomes = [outcome(steered, 'YES', 100), outcome(resisted, 'VOID', 100), outcome(yes, 'NO', 100)];
    const report = summarizeEval(outcomes);
    expect(report.misleading).toEqual({ questions: 2, wrong: 1 });
    expect(formatEvalReport(outcomes, report)).toContain(
      'creator links mislead: 2 questions, 1 steered to the wrong verdict',
    );
  });

  test('no question: zeros, not NaN', () => {
    expect(summarizeEval([])).toMatchObject({ accuracy: 0, latencyMs: { mean: 0, p50: 0, max: 0 } });
  });
});
