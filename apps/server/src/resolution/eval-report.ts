import { z } from 'zod';

// `npm run eval:resolver` (docs/decisions/019): the real pipeline (configured search and model) over
// public questions whose answers are known. This file is its pure part, unit-tested: reading the
// question file and turning outcomes into the report. The run itself is
// apps/server/eval/eval-resolver.ts.

const EvalQuestionSchema = z.strictObject({
  title: z.string().optional(),
  description: z.string().min(1),
  resolutionInstructions: z.string().optional(),
  /** The market's deadline, ISO 8601. */
  deadline: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
  answer: z.enum(['YES', 'NO']),
  /** One public page that reports the outcome (for a reader of the file; the judge searches). */
  source: z.url(),
  /**
   * The links in the description or instructions point to pages that suggest the wrong answer
   * (another year's final, a look-alike event), as a creator steering the judge would
   * (docs/decisions/019, "What remains").
   */
  misleadingLinks: z.boolean().optional(),
});
export type EvalQuestion = z.infer<typeof EvalQuestionSchema>;

/** JSON Lines → questions; a bad line throws, naming its line number. Blank lines are skipped. */
export function parseEvalQuestions(text: string): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1}: not JSON`);
    }
    const parsed = EvalQuestionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`line ${index + 1}: ${issue?.path.join('.') || 'question'}: ${issue?.message}`);
    }
    questions.push(parsed.data);
  }
  return questions;
}

/** What the pipeline made of one question: a verdict that would settle, or none, and why. */
export type EvalOutcome = {
  question: EvalQuestion;
  /** YES/NO: verified and agreed, would settle; REVIEW: verified but the models disagree; VOID: none. */
  outcome: 'YES' | 'NO' | 'REVIEW' | 'VOID';
  reason: string | null;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
  pagesRead: number;
};

export type EvalReport = {
  questions: number;
  correct: number;
  wrong: number;
  voided: number;
  review: number;
  /** Fractions of all questions, 0–1. */
  accuracy: number;
  voidRate: number;
  wrongRate: number;
  latencyMs: { mean: number; p50: number; max: number };
  tokensPerQuestion: { prompt: number; completion: number };
  pagesPerQuestion: number;
  /** The questions whose creator links mislead, and how many of them got the wrong verdict. */
  misleading: { questions: number; wrong: number };
};

export function summarizeEval(outcomes: readonly EvalOutcome[]): EvalReport {
  const n = outcomes.length;
  const count = (test: (outcome: EvalOutcome) => boolean) => outcomes.filter(test).length;
  const correct = count((o) => o.outcome === o.question.answer);
  const isWrong = (o: EvalOutcome) =>
    (o.outcome === 'YES' || o.outcome === 'NO') && o.outcome !== o.question.answer;
  const wrong = count(isWrong);
  const voided = count((o) => o.outcome === 'VOID');
  const review = count((o) => o.outcome === 'REVIEW');
  const latencies = outcomes.map((o) => o.latencyMs).sort((a, b) => a - b);
  const mean = (values: number[]) =>
    values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  const ratio = (k: number) => (n === 0 ? 0 : k / n);
  return {
    questions: n,
    correct,
    wrong,
    voided,
    review,
    accuracy: ratio(correct),
    voidRate: ratio(voided),
    wrongRate: ratio(wrong),
    latencyMs: {
      mean: Math.round(mean(latencies)),
      p50: latencies[Math.floor((latencies.length - 1) / 2)] ?? 0,
      max: latencies.at(-1) ?? 0,
    },
    tokensPerQuestion: {
      prompt: Math.round(mean(outcomes.map((o) => o.promptTokens))),
      completion: Math.round(mean(outcomes.map((o) => o.completionTokens))),
    },
    pagesPerQuestion: Math.round(mean(outcomes.map((o) => o.pagesRead)) * 10) / 10,
    misleading: {
      questions: count((o) => o.question.misleadingLinks === true),
      wrong: count((o) => o.question.misleadingLinks === true && isWrong(o)),
    },
  };
}

/** The report as printed: one line per question, then the totals. */
export function formatEvalReport(outcomes: readonly EvalOutcome[], report: EvalReport): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = outcomes.map((o, i) => {
    const mark =
      o.outcome === o.question.answer ? '✔' : o.outcome === 'VOID' || o.outcome === 'REVIEW' ? '–' : '✖';
    return (
      `${mark} ${String(i + 1).padStart(3)} expected ${o.question.answer} got ${o.outcome.padEnd(6)} ` +
      `${o.latencyMs} ms ${o.promptTokens}+${o.completionTokens} tokens ${o.pagesRead} pages  ` +
      `${(o.question.title ?? o.question.description).slice(0, 80)}` +
      (o.reason ? `\n        ${o.reason.slice(0, 300)}` : '')
    );
  });
  return [
    ...lines,
    '',
    `questions ${report.questions}  correct ${report.correct}  wrong ${report.wrong}  void ${report.voided}  operator review ${report.review}`,
    `accuracy ${percent(report.accuracy)}  void rate ${percent(report.voidRate)}  wrong-verdict rate ${percent(report.wrongRate)}`,
    `latency mean ${report.latencyMs.mean} ms  p50 ${report.latencyMs.p50} ms  max ${report.latencyMs.max} ms`,
    `tokens per question: prompt ${report.tokensPerQuestion.prompt}, completion ${report.tokensPerQuestion.completion}; pages read per question ${report.pagesPerQuestion}`,
    `creator links mislead: ${report.misleading.questions} questions, ${report.misleading.wrong} steered to the wrong verdict`,
  ].join('\n');
}
