import type { EvidenceQuestion } from './evidence-types.ts';
import { tokenize } from './rank-passages.ts';

// Where the gatherer looks (docs/decisions/018): the URLs the creator wrote into the description and
// the resolution instructions (the sources the bettors were promised), and search queries made from
// the market's own text. The queries are ours, never a model's: a model told what to search for by an
// untrusted page or creator could be steered to the pages that agree with it.

/** Queries stay short: search engines cut long ones, and a long one matches nothing. */
export const MAX_QUERY_CHARS = 200;
/** Key terms added to the title in the second query. */
const KEY_TERMS = 8;

const URL_PATTERN = /https?:\/\/[^\s<>"'`\])}]+/giu;

/** http(s) URLs in the creator's text, in order, trailing punctuation trimmed, duplicates removed. */
export function creatorUrls(question: EvidenceQuestion): string[] {
  const text = `${question.description}\n${question.resolutionInstructions ?? ''}`;
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const match of text.match(URL_PATTERN) ?? []) {
    const trimmed = match.replace(/[.,;:!?，。；：！？]+$/u, '');
    const key = normaliseUrl(trimmed);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    urls.push(trimmed);
  }
  return urls;
}

/**
 * The key for "same page": scheme and host lower-cased (URL does that), default port and fragment
 * dropped, a trailing slash on the path dropped, common tracking parameters removed. null when the
 * text is not a URL.
 */
export function normaliseUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) {
    if (/^(utm_\w+|fbclid|gclid|ref)$/i.test(name)) url.searchParams.delete(name);
  }
  url.searchParams.sort();
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** The question as the ranker reads it: title, description and instructions without their URLs. */
export function questionText(question: EvidenceQuestion): string {
  return [question.title, question.description, question.resolutionInstructions ?? '']
    .join('\n')
    .replace(URL_PATTERN, ' ');
}

/**
 * Two or three queries: the title; the title with the description's and instructions' most frequent
 * key terms; and the resolution instructions' own words when there are any. Without URLs, bounded
 * in length, deduplicated.
 */
export function searchQueries(question: EvidenceQuestion): string[] {
  const clean = (text: string) => text.replace(URL_PATTERN, ' ').replace(/\s+/g, ' ').trim();
  const bound = (text: string) => {
    if (text.length <= MAX_QUERY_CHARS) return text;
    const cut = text.lastIndexOf(' ', MAX_QUERY_CHARS);
    return text.slice(0, cut > 0 ? cut : MAX_QUERY_CHARS);
  };
  const title = clean(question.title);
  const titleTerms = new Set(tokenize(title));
  const counts = new Map<string, number>();
  for (const term of tokenize(clean(`${question.description} ${question.resolutionInstructions ?? ''}`))) {
    if (titleTerms.has(term) || term.length < 3) continue;
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  const keyTerms = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, KEY_TERMS)
    .map(([term]) => term);
  const candidates = [
    title,
    keyTerms.length > 0 ? `${title} ${keyTerms.join(' ')}` : '',
    clean(question.resolutionInstructions ?? ''),
  ];
  const seen = new Set<string>();
  const queries: string[] = [];
  for (const candidate of candidates.map(bound)) {
    const key = candidate.toLowerCase();
    if (candidate === '' || seen.has(key)) continue;
    seen.add(key);
    queries.push(candidate);
  }
  return queries;
}
