import { describe, expect, it } from 'vitest';
import { estimateTokens, MAX_PASSAGE_CHARS, rankPassages, splitPassages, tokenize } from './rank-passages.ts';

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${topic} goes on for a while with ordinary words.`,
  ).join(' ');

/** `pages` pages of `passages` paragraphs each, every paragraph `sentence` plus a little filler. */
const pagesOf = (pages: number, passages: number, sentence: string, fromCreator: boolean, fill = 8) =>
  Array.from({ length: pages }, (_, i) => ({
    text: Array.from(
      { length: passages },
      (_, j) => `${sentence} Page ${i} passage ${j}. ${filler('bitcoin', fill)}`,
    ).join('\n\n'),
    fromCreator,
  }));

describe('splitPassages', () => {
  it('keeps paragraphs, joins short ones and cuts long ones at sentence ends', () => {
    const text = ['Short one.', 'Short two.', filler('weather', 40)].join('\n\n');
    const passages = splitPassages(text);
    expect(passages[0]).toBe('Short one.\n\nShort two.');
    expect(passages.length).toBeGreaterThan(3);
    for (const passage of passages) expect(passage.length).toBeLessThanOrEqual(MAX_PASSAGE_CHARS);
    expect(passages.slice(1).every((passage) => passage.endsWith('words.'))).toBe(true);
  });

  it('cuts a run-on sentence at spaces', () => {
    const passages = splitPassages('word '.repeat(1000));
    for (const passage of passages) expect(passage.length).toBeLessThanOrEqual(MAX_PASSAGE_CHARS);
    expect(passages.join(' ').split(' ')).toHaveLength(1000);
  });
});

describe('tokenize', () => {
  it('lower-cases words, drops stop words, and pairs Chinese characters', () => {
    expect(tokenize('Will the BTC price close ABOVE $100,000?')).toEqual([
      'btc',
      'price',
      'close',
      'above',
      '100',
      '000',
    ]);
    expect(tokenize('比特币价格')).toEqual(['比特', '特币', '币价', '价格']);
  });
});

describe('rankPassages', () => {
  const question = 'Will Bitcoin close above 100,000 dollars on Binance on 31 December?';
  const relevant = 'Bitcoin closed above 100,000 dollars on Binance on 31 December, the exchange data shows.';

  it('puts the most relevant passage first', () => {
    const pages = [
      { text: `${filler('weather', 8)}\n\n${filler('football', 8)}`, fromCreator: false },
      { text: `${filler('cooking', 8)}\n\n${relevant}`, fromCreator: false },
    ];
    const passages = rankPassages(pages, question, { tokenBudget: 6000, maxPassagesPerPage: 4 });
    expect(passages[0]).toMatchObject({ pageIndex: 1, text: relevant });
    expect(passages[0]?.score).toBeGreaterThan(0);
    // Irrelevant passages (score 0) are not shown.
    expect(passages.every((passage) => passage.score > 0)).toBe(true);
  });

  it('holds the token budget', () => {
    const pages = pagesOf(10, 10, relevant, false);
    const passages = rankPassages(pages, question, { tokenBudget: 1500, maxPassagesPerPage: 4 });
    const tokens = passages.reduce((sum, passage) => sum + estimateTokens(passage.text), 0);
    expect(tokens).toBeLessThanOrEqual(1500);
    expect(tokens).toBeGreaterThan(1000);
  });

  it('takes at most N passages from one page, so one page cannot crowd out the others', () => {
    const pages = [
      {
        text: Array.from({ length: 20 }, (_, j) => `${relevant} ${filler('bitcoin', 4)} ${j}`).join('\n\n'),
        fromCreator: false,
      },
      { text: `Bitcoin news: ${filler('markets', 3)}`, fromCreator: false },
    ];
    const passages = rankPassages(pages, question, { tokenBudget: 100_000, maxPassagesPerPage: 3 });
    expect(passages.filter((passage) => passage.pageIndex === 0)).toHaveLength(3);
    expect(passages.some((passage) => passage.pageIndex === 1)).toBe(true);
  });

  it('shows the best passage of each page the creator named, even when it scores nothing', () => {
    const pages = [
      { text: 'Official results table: see the rows below.', fromCreator: true },
      { text: relevant, fromCreator: false },
    ];
    const passages = rankPassages(pages, question, { tokenBudget: 6000, maxPassagesPerPage: 4 });
    expect(passages.map((passage) => passage.pageIndex).sort()).toEqual([0, 1]);
  });

  it("keeps room for the other pages: creator pages stuffed with the question's words cannot crowd out a search result", () => {
    const stuffed = `${question} ${question} Bitcoin Binance 100,000 dollars 31 December close above.`;
    const creatorPages = pagesOf(5, 4, stuffed, true, 3);
    const searchPage = {
      text: `Exchange data shows where Bitcoin ended the year. ${filler('markets', 8)}`,
      fromCreator: false,
    };
    const budget = 1200;
    const passages = rankPassages([...creatorPages, searchPage], question, {
      tokenBudget: budget,
      maxPassagesPerPage: 4,
    });
    expect(passages.some((passage) => passage.pageIndex === creatorPages.length)).toBe(true);
  });

  it("gives the creator's pages the whole budget when no other page has text", () => {
    const pages = pagesOf(3, 4, relevant, true, 3);
    const passages = rankPassages([...pages, { text: '', fromCreator: false }], question, {
      tokenBudget: 1200,
      maxPassagesPerPage: 4,
    });
    const tokens = passages.reduce((sum, passage) => sum + estimateTokens(passage.text), 0);
    expect(tokens).toBeGreaterThan(600);
  });

  it('ranks with fewer than three passages, and with none', () => {
    expect(
      rankPassages([{ text: relevant, fromCreator: false }], question, {
        tokenBudget: 6000,
        maxPassagesPerPage: 4,
      }),
    ).toHaveLength(1);
    expect(
      rankPassages([{ text: '', fromCreator: true }], question, { tokenBudget: 6000, maxPassagesPerPage: 4 }),
    ).toEqual([]);
  });
});
