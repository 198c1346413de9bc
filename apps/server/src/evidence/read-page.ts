import { createRequire } from 'node:module';
import type { Readability } from '@mozilla/readability';
import type { parseHTML } from 'linkedom';
import { getDomain } from 'tldts';

// The article text of a page: Mozilla's Readability (Firefox Reader View) on a linkedom
// DOM drops navigation, footers, scripts and the like; when it finds no article we keep the body's
// text. Block elements become paragraph breaks so the ranker can cut passages on them. The text is
// only text: whatever instructions a page holds are data for the judge, which encodes them as such.

/**
 * Readability's cost grows faster than the page (about 1 s for 3,000 elements on our busy 2-core
 * machine, 3 s for 9,000), and a page has EVIDENCE_PAGE_PARSE_MS to be read: past this many
 * elements the page is read as its body's text instead, which costs only the parse (docs/decisions/018).
 */
export const MAX_READABILITY_ELEMENTS = 4_000;

/** A page's text is capped: the ranker needs the best ~24k characters of 25 pages, not whole books. */
export const MAX_TEXT_CHARS = 100_000;

export type ReadPage = { title: string | null; text: string };

type HtmlLibraries = { parseHTML: typeof parseHTML; Readability: typeof Readability };
let htmlLibraries: HtmlLibraries | undefined;

/**
 * linkedom and Readability load in a page reader's thread (page-worker.ts), never at the server's
 * start: most instances never judge a market (no AI endpoint, or another instance leased the job),
 * and the pair holds ~15 MB of memory once loaded (docs/decisions/023).
 */
export function loadHtmlLibraries(): HtmlLibraries {
  if (!htmlLibraries) {
    const require = createRequire(import.meta.url);
    htmlLibraries = {
      parseHTML: (require('linkedom') as HtmlLibraries).parseHTML,
      Readability: (require('@mozilla/readability') as HtmlLibraries).Readability,
    };
  }
  return htmlLibraries;
}

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'HEAD']);

type TextNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
};

export function readPage(body: string, contentType: string | null): ReadPage {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'text/plain') return { title: null, text: tidy(body) };
  const html = loadHtmlLibraries();
  const { document } = html.parseHTML(body);
  const pageTitle = document.querySelector('title')?.textContent?.trim() || null;
  let article: ReturnType<Readability<TextNode>['parse']> = null;
  // Counted here: Readability's own maxElemsToParse counts getElementsByTagName('*'), which is
  // always empty on linkedom, so it never stopped a large page.
  if (document.querySelectorAll('*').length <= MAX_READABILITY_ELEMENTS) {
    try {
      // The serializer hands back the article's node, so we can walk its blocks.
      article = new html.Readability<TextNode>(document as never, {
        serializer: (node) => node as never,
      }).parse();
    } catch {
      // A document Readability cannot handle: the body's text below.
      article = null;
    }
  }
  const root = (article?.content ?? document.body) as TextNode | null;
  const text = root ? tidy(blockText(root)) : '';
  return { title: article?.title?.trim() || pageTitle, text };
}

/** The text of a node with a paragraph break around each block element. */
function blockText(root: TextNode): string {
  const out: string[] = [];
  const walk = (node: TextNode) => {
    if (node.nodeType === 3) {
      out.push(node.textContent ?? '');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) return;
    if (tag === 'BR') {
      out.push('\n');
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) out.push('\n\n');
    // Read once: linkedom builds a new list on every childNodes access (a walk of the siblings).
    const children = node.childNodes;
    for (let index = 0; index < children.length; index++) walk(children[index] as TextNode);
    if (block) out.push('\n\n');
  };
  walk(root);
  return out.join('');
}

/** Spaces collapsed within lines, at most one blank line between paragraphs, capped. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '')
    .join('\n\n')
    .slice(0, MAX_TEXT_CHARS);
}

/** The registrable domain ("bbc.co.uk") from the public-suffix list; the host itself for an IP or localhost. */
export function siteOf(url: string): string {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return '';
  }
  return getDomain(hostname) ?? hostname.replace(/^\[(.*)\]$/, '$1');
}
