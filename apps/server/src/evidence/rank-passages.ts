import bm25 from 'wink-bm25-text-search';
import type { EvidencePassage } from './evidence-types.ts';

// What the judge is shown of the pages: each page's text cut into passages of about a paragraph,
// ranked against the question with BM25 (wink-bm25-text-search, docs/decisions/018), and the budget
// filled best first. A page gives at most a few passages, so one long page cannot crowd out the
// others, and each page the creator named gives its best passage first: it is the source the bettors
// were promised. The creator's pages together get at most half the budget until every relevant
// passage of the other pages has had its turn, so a creator who names many pages cannot keep the
// search results from the judge (docs/decisions/019, "What remains").

export const MIN_PASSAGE_CHARS = 400;
export const MAX_PASSAGE_CHARS = 800;
/** The usual rule of thumb for English text: a token is about four characters. */
const CHARS_PER_TOKEN = 4;

export type RankablePage = { text: string; fromCreator: boolean };

export type RankOptions = { tokenBudget: number; maxPassagesPerPage: number };

/** Paragraphs, short ones joined and long ones cut at sentence ends, each at most MAX_PASSAGE_CHARS. */
export function splitPassages(text: string): string[] {
  const pieces = text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .flatMap(cutLong);
  const passages: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current === '') current = piece;
    else if (current.length < MIN_PASSAGE_CHARS && current.length + 2 + piece.length <= MAX_PASSAGE_CHARS) {
      current = `${current}\n\n${piece}`;
    } else {
      passages.push(current);
      current = piece;
    }
  }
  if (current !== '') passages.push(current);
  return passages;
}

/** A paragraph longer than the maximum, cut at sentence ends (or at a space for a run-on sentence). */
function cutLong(paragraph: string): string[] {
  if (paragraph.length <= MAX_PASSAGE_CHARS) return [paragraph];
  const sentences = paragraph.split(/(?<=[.!?。！？])\s+/u).flatMap(cutAtSpaces);
  const out: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current === '') current = sentence;
    else if (current.length + 1 + sentence.length <= MAX_PASSAGE_CHARS) current = `${current} ${sentence}`;
    else {
      out.push(current);
      current = sentence;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

function cutAtSpaces(sentence: string): string[] {
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_PASSAGE_CHARS) {
    const space = rest.lastIndexOf(' ', MAX_PASSAGE_CHARS);
    const cut = space > MAX_PASSAGE_CHARS / 2 ? space : MAX_PASSAGE_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') out.push(rest);
  return out;
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by did do does for from has have how if in into is it its of on or ' +
    'that the their then there these this to was were what when where which who will with would ' +
    'yes no before after by end market resolve resolves resolved'
  ).split(' '),
);

/**
 * Words of Latin, Cyrillic and the like, lower-cased; Chinese, Japanese and Korean runs (no spaces
 * between words) as overlapping character pairs, the usual way to index them without a dictionary.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    const cjkRuns = word.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu);
    if (cjkRuns) {
      for (const run of cjkRuns) {
        if (run.length === 1) tokens.push(run);
        for (let index = 0; index + 1 < run.length; index++) tokens.push(run.slice(index, index + 2));
      }
      const rest = word.replace(
        /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu,
        ' ',
      );
      for (const part of rest.split(' ')) if (part !== '' && !STOP_WORDS.has(part)) tokens.push(part);
    } else if (!STOP_WORDS.has(word)) {
      tokens.push(word);
    }
  }
  return tokens;
}

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The passages the judge is shown, best first, within the token budget. */
export function rankPassages(
  pages: readonly RankablePage[],
  question: string,
  options: RankOptions,
): EvidencePassage[] {
  const candidates: EvidencePassage[] = [];
  pages.forEach((page, pageIndex) => {
    for (const text of splitPassages(page.text)) candidates.push({ pageIndex, text, score: 0 });
  });
  if (candidates.length === 0) return [];

  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([tokenize as (input: never) => unknown]);
  for (const [index, candidate] of candidates.entries()) engine.addDoc({ text: candidate.text }, index);
  // The library needs three documents to compute its statistics; empty ones match nothing.
  for (let pad = candidates.length; pad < 3; pad++) engine.addDoc({ text: '' }, `pad${pad}`);
  engine.consolidate();
  for (const [id, score] of engine.search(question, candidates.length + 3)) {
    const candidate = candidates[Number(id)];
    if (candidate) candidate.score = score;
  }
  // Best first; on a tie the earlier page and passage (creator pages come first).
  const ranked = candidates
    .map((candidate, order) => ({ candidate, order }))
    .sort((a, b) => b.candidate.score - a.candidate.score || a.order - b.order)
    .map(({ candidate }) => candidate);

  const chosen = new Set<EvidencePassage>();
  const perPage = new Map<number, number>();
  const fromCreator = (passage: EvidencePassage) => pages[passage.pageIndex]?.fromCreator === true;
  const othersHavePassages = candidates.some((passage) => !fromCreator(passage));
  const creatorBudget = othersHavePassages ? Math.floor(options.tokenBudget / 2) : options.tokenBudget;
  let tokens = 0;
  let creatorTokens = 0;
  const take = (passage: EvidencePassage, creatorCap: number): boolean => {
    const cost = estimateTokens(passage.text);
    if (chosen.has(passage) || tokens + cost > options.tokenBudget) return false;
    if (fromCreator(passage) && creatorTokens + cost > creatorCap) return false;
    if ((perPage.get(passage.pageIndex) ?? 0) >= options.maxPassagesPerPage) return false;
    chosen.add(passage);
    perPage.set(passage.pageIndex, (perPage.get(passage.pageIndex) ?? 0) + 1);
    tokens += cost;
    if (fromCreator(passage)) creatorTokens += cost;
    return true;
  };
  // The creator's pages first: their best passage each, relevant or not, within their share.
  for (const [pageIndex, page] of pages.entries()) {
    if (!page.fromCreator) continue;
    const best = ranked.find((passage) => passage.pageIndex === pageIndex);
    if (best) take(best, creatorBudget);
  }
  // Then the relevant passages best first, the creator's still within their share; what budget is
  // left after that may go to the creator's pages too.
  for (const passage of ranked) if (passage.score > 0) take(passage, creatorBudget);
  for (const passage of ranked) if (passage.score > 0) take(passage, options.tokenBudget);
  return ranked.filter((passage) => chosen.has(passage));
}
