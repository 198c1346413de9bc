import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { foldText, MIN_QUOTE_LENGTH, normalizeUrl, verifyEvidence } from './evidence-verification.ts';

const BBC = {
  url: 'https://www.bbc.co.uk/news/1',
  finalUrl: 'https://www.bbc.co.uk/news/1',
  site: 'bbc.co.uk',
  text: 'The central bank raised its main rate to 5.25 per cent on Wednesday, the ninth rise in a row.',
  namedByCreator: false,
};
const REUTERS = {
  url: 'http://reuters.com/a?x=1',
  finalUrl: 'https://www.reuters.com/markets/a?x=1',
  site: 'reuters.com',
  text: 'Policymakers voted 7–2 to lift Bank Rate to 5.25%, the Bank of England said.',
  namedByCreator: false,
};

describe('verifyEvidence', () => {
  test('verbatim quotes from two sites verify', () => {
    const check = verifyEvidence({
      pages: [BBC, REUTERS],
      minSites: 2,
      requireIndependentSource: false,
      citations: [
        { url: BBC.url, quote: 'raised its main rate to 5.25 per cent' },
        { url: REUTERS.finalUrl, quote: 'lift Bank Rate to 5.25%, the Bank' },
      ],
    });
    expect(check).toMatchObject({ status: 'verified', reason: null, distinctSites: 2, minSites: 2 });
    expect(check.citations.map((c) => c.verified)).toEqual([true, true]);
  });

  test('a page is known by its requested or its final URL, normalised', () => {
    const check = verifyEvidence({
      pages: [REUTERS],
      minSites: 1,
      requireIndependentSource: false,
      citations: [
        { url: 'HTTP://REUTERS.COM/a?x=1#top', quote: 'lift Bank Rate to 5.25%, the Bank' },
        { url: 'https://www.reuters.com:443/markets/a/?x=1', quote: 'lift Bank Rate to 5.25%, the Bank' },
      ],
    });
    expect(check.status).toBe('verified');
  });

  test('a fabricated quote fails and says which', () => {
    const check = verifyEvidence({
      pages: [BBC, REUTERS],
      minSites: 2,
      requireIndependentSource: false,
      citations: [
        { url: BBC.url, quote: 'raised its main rate to 6.00 per cent' },
        { url: REUTERS.url, quote: 'lift Bank Rate to 5.25%, the Bank' },
      ],
    });
    expect(check.status).toBe('failed');
    expect(check.reason).toContain('1 of 2 citations could not be verified');
    expect(check.reason).toContain('quote not found in the page');
    expect(check.citations[0]).toMatchObject({ verified: false, pageIndex: 0 });
  });

  test('a URL that was not read for this attempt fails, even with a true quote', () => {
    const check = verifyEvidence({
      pages: [BBC],
      minSites: 1,
      requireIndependentSource: false,
      citations: [
        { url: 'https://elsewhere.example/news/1', quote: 'raised its main rate to 5.25 per cent' },
      ],
    });
    expect(check).toMatchObject({ status: 'failed' });
    expect(check.reason).toContain('not a page read for this attempt');
  });

  test('a page that could not be read verifies nothing', () => {
    const check = verifyEvidence({
      pages: [{ ...BBC, text: '' }],
      minSites: 1,
      requireIndependentSource: false,
      citations: [{ url: BBC.url, quote: 'raised its main rate to 5.25 per cent' }],
    });
    expect(check.status).toBe('failed');
  });

  test('too few distinct sites fails, however many quotes', () => {
    const check = verifyEvidence({
      pages: [BBC, { ...BBC, url: 'https://news.bbc.co.uk/2', finalUrl: 'https://news.bbc.co.uk/2' }],
      minSites: 2,
      requireIndependentSource: false,
      citations: [
        { url: BBC.url, quote: 'raised its main rate to 5.25 per cent' },
        { url: 'https://news.bbc.co.uk/2', quote: 'the ninth rise in a row' },
      ],
    });
    expect(check).toMatchObject({ status: 'failed', distinctSites: 1 });
    expect(check.reason).toContain('at least 2 are required');
  });

  test('no citation at all fails', () => {
    expect(
      verifyEvidence({ pages: [BBC], minSites: 1, requireIndependentSource: false, citations: [] }).reason,
    ).toBe('The verdict cites no quote.');
  });

  test('a quote shorter than the minimum proves nothing', () => {
    const check = verifyEvidence({
      pages: [BBC],
      minSites: 1,
      requireIndependentSource: false,
      citations: [{ url: BBC.url, quote: 'the ninth' }],
    });
    expect(check.citations[0]?.problem).toBe(`quote shorter than ${MIN_QUOTE_LENGTH} characters`);
  });

  test('curly quotes, NFKC forms and whitespace do not matter; words and case do', () => {
    const page = {
      ...BBC,
      text: 'He said: \u201cWe will not\u00a0raise\n\n rates\u201d \u2014 and the ﬁrm\u2019s shares fell.',
    };
    const claim = (quote: string) =>
      verifyEvidence({
        pages: [page],
        minSites: 1,
        requireIndependentSource: false,
        citations: [{ url: BBC.url, quote }],
      }).status;
    expect(claim('"We will not raise rates" \u2014 and the firm\'s shares')).toBe('verified');
    expect(claim('\u00abWe will not raise rates\u00bb \u2014 and the firm\u2018s shares')).toBe('verified');
    expect(claim('"We will NOT raise rates" \u2014 and the firm\'s shares')).toBe('failed');
    expect(claim('"We will now raise rates" \u2014 and the firm\'s shares')).toBe('failed');
  });
});

describe('an independent source', () => {
  const CREATOR_A = { ...BBC, namedByCreator: true };
  const CREATOR_B = { ...REUTERS, namedByCreator: true };
  const INDEPENDENT = {
    url: 'https://apnews.com/article/rates',
    finalUrl: 'https://apnews.com/article/rates',
    site: 'apnews.com',
    text: 'The Bank of England raised interest rates to 5.25% on Wednesday, its fourteenth straight increase.',
    namedByCreator: false,
  };
  const quoteA = { url: BBC.url, quote: 'raised its main rate to 5.25 per cent' };
  const quoteB = { url: REUTERS.url, quote: 'lift Bank Rate to 5.25%, the Bank' };
  const quoteIndependent = { url: INDEPENDENT.url, quote: 'raised interest rates to 5.25% on Wednesday' };

  test("quotes only from the creator's own pages on two sites do not verify when a search engine was asked", () => {
    const check = verifyEvidence({
      pages: [CREATOR_A, CREATOR_B, INDEPENDENT],
      minSites: 2,
      requireIndependentSource: true,
      citations: [quoteA, quoteB],
    });
    expect(check).toMatchObject({ status: 'failed', distinctSites: 0 });
    expect(check.reason).toContain('page the creator did not name');
    expect(check.citations.map((citation) => citation.verified)).toEqual([true, true]);
  });

  test("the creator's pages still verify on their own when no search engine is configured", () => {
    const check = verifyEvidence({
      pages: [CREATOR_A, CREATOR_B],
      minSites: 2,
      requireIndependentSource: false,
      citations: [quoteA, quoteB],
    });
    expect(check).toMatchObject({ status: 'verified', distinctSites: 2 });
  });

  test('sites are counted over the pages the creator did not name', () => {
    const oneIndependent = verifyEvidence({
      pages: [CREATOR_A, CREATOR_B, INDEPENDENT],
      minSites: 2,
      requireIndependentSource: true,
      citations: [quoteA, quoteB, quoteIndependent],
    });
    expect(oneIndependent).toMatchObject({ status: 'failed', distinctSites: 1 });
    expect(oneIndependent.reason).toBe(
      'Verified quotes come from 1 site the creator did not name; at least 2 are required.',
    );
    const enough = verifyEvidence({
      pages: [CREATOR_A, INDEPENDENT],
      minSites: 1,
      requireIndependentSource: true,
      citations: [quoteA, quoteIndependent],
    });
    expect(enough).toMatchObject({ status: 'verified', reason: null, distinctSites: 1 });
  });

  test('a verdict verifies with an independent source only if some verified quote is from a page the creator did not name', () => {
    const page = fc.record({
      site: fc.constantFrom('a.com', 'b.org', 'c.net'),
      namedByCreator: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(page, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        (list, minSites) => {
          const pages = list.map(({ site, namedByCreator }, i) => ({
            url: `https://${site}/${i}`,
            finalUrl: `https://${site}/${i}`,
            site,
            text: `page ${i} says the thing happened on the day in question`,
            namedByCreator,
          }));
          const citations = pages.map((each, i) => ({
            url: each.url,
            quote: `page ${i} says the thing happened`,
          }));
          const check = verifyEvidence({ pages, minSites, citations, requireIndependentSource: true });
          const independentSites = new Set(
            list.filter((each) => !each.namedByCreator).map((each) => each.site),
          );
          expect(check.distinctSites).toBe(independentSites.size);
          return (check.status === 'verified') === independentSites.size >= minSites;
        },
      ),
    );
  });
});

describe('verification properties', () => {
  const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
  const text = fc.array(word, { minLength: 8, maxLength: 40 }).map((words) => words.join(' '));

  test('any slice of a page of at least the minimum length verifies against that page', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (body, a, b) => {
        const start = a % body.length;
        const end = Math.min(body.length, start + MIN_QUOTE_LENGTH + (b % 40));
        const quote = body.slice(start, end);
        fc.pre(foldText(quote).length >= MIN_QUOTE_LENGTH);
        const check = verifyEvidence({
          pages: [{ ...BBC, text: body }],
          minSites: 1,
          requireIndependentSource: false,
          citations: [{ url: BBC.url, quote: ` ${quote.replaceAll(' ', '  \n')} ` }],
        });
        return check.status === 'verified';
      }),
    );
  });

  test('a quote with a word the page does not have never verifies', () => {
    fc.assert(
      fc.property(text, fc.nat(), (body, a) => {
        const words = body.split(' ');
        const at = a % words.length;
        const quote = [...words.slice(at, at + 6), 'ZZZ-NOT-ON-THE-PAGE'].join(' ');
        const check = verifyEvidence({
          pages: [{ ...BBC, text: body }],
          minSites: 1,
          requireIndependentSource: false,
          citations: [{ url: BBC.url, quote }],
        });
        return check.status === 'failed';
      }),
    );
  });

  test('the distinct-site count never exceeds the verified citations, and the minimum is enforced', () => {
    const sites = fc.array(fc.constantFrom('a.com', 'b.org', 'c.net', 'd.io'), {
      minLength: 0,
      maxLength: 6,
    });
    fc.assert(
      fc.property(sites, fc.integer({ min: 1, max: 5 }), (list, minSites) => {
        const pages = list.map((site, i) => ({
          url: `https://${site}/${i}`,
          finalUrl: `https://${site}/${i}`,
          site,
          text: `page ${i} says the thing happened on the day in question`,
          namedByCreator: false,
        }));
        const citations = pages.map((page, i) => ({
          url: page.url,
          quote: `page ${i} says the thing happened`,
        }));
        const check = verifyEvidence({ pages, minSites, requireIndependentSource: false, citations });
        expect(check.distinctSites).toBe(new Set(list).size);
        return (check.status === 'verified') === (list.length > 0 && new Set(list).size >= minSites);
      }),
    );
  });

  test('normalizeUrl is idempotent and refuses what is not http(s)', () => {
    // Built from parts rather than fc.webUrl, which is slow to generate on a busy machine.
    const url = fc
      .tuple(
        fc.constantFrom('http', 'https', 'HTTP', 'ftp'),
        fc.constantFrom('example.com', 'WWW.Example.COM', 'bbc.co.uk', '127.0.0.1', '[::1]'),
        fc.constantFrom('', ':80', ':443', ':8080'),
        fc.array(fc.stringMatching(/^[a-zA-Z0-9._~%-]{0,8}$/), { maxLength: 4 }),
        fc.boolean(),
        fc.option(fc.stringMatching(/^[a-z0-9=&]{0,10}$/)),
        fc.option(fc.stringMatching(/^[a-z0-9]{0,6}$/)),
      )
      .map(
        ([scheme, host, port, path, slash, query, hash]) =>
          `${scheme}://${host}${port}/${path.join('/')}${slash ? '/' : ''}${query === null ? '' : `?${query}`}${hash === null ? '' : `#${hash}`}`,
      );
    fc.assert(
      fc.property(url, (raw) => {
        const once = normalizeUrl(raw);
        return once === null || (normalizeUrl(once) === once && !once.includes('#'));
      }),
    );
    expect(normalizeUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
  });
});
