import { cleanup, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { NO_MARKET_PARTS, startMarketApi, testMarket } from '#testing/market-test-kit.tsx';
import { renderWithApp, testAppConfig } from '#testing/test-app.tsx';
import { MarketDetail } from './market-detail.tsx';

// "How resolution works" states the deployment's real settings, never "25+".

let api: Awaited<ReturnType<typeof startMarketApi>>;
beforeAll(async () => {
  api = await startMarketApi();
});
afterAll(() => api?.close());
afterEach(cleanup);

const SLOW = { timeout: 10_000 };
const how = async () =>
  (await screen.findByRole('region', { name: 'How resolution works' }, SLOW)).textContent;
const resolution = testAppConfig.resolution;

describe('How resolution works', () => {
  test('with AI and search: the model of the market, the page limit, the sites and confidence required', async () => {
    api.serve(testMarket({ resolver: { model: 'judge-model-x', promptVersion: 'v2', contentHash: '0x' } }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, {
      config: {
        resolution: {
          ...resolution,
          searchProvider: 'searxng',
          maxPages: 7,
          minSources: 3,
          minConfidence: 80,
        },
      },
    });
    const text = await how();
    expect(text).toContain(
      'Judged by judge-model-x from up to 7 pages found by search (searxng) and the links in the market',
    );
    expect(text).toContain('word-for-word quotes from at least 3 sites, checked by the server');
    // The creator's links are capped and do not count towards the sites.
    expect(text).toContain("the links in the market's text (up to 5 of them)");
    expect(text).toContain("not counting the pages the market's text links to");
    expect(text).toContain('a confidence of at least 80%');
    expect(text).not.toMatch(/25\+|does not search the web/);
  });

  test('one site is one site', async () => {
    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, {
      config: { resolution: { ...resolution, minSources: 1 } },
    });
    expect(await how()).toContain('from at least 1 site,');
  });

  test('without search: only the links in the description and instructions are read', async () => {
    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, {
      config: { resolution: { ...resolution, searchProvider: null, maxPages: 25, maxCreatorPages: 5 } },
    });
    const text = await how();
    expect(text).toContain(
      "only the links in the market's description and instructions are read (up to 5 pages)",
    );
    expect(text).not.toContain('found by search');
  });

  test('a market without an AI judge: an operator decides, whatever the deployment has now', async () => {
    api.serve(testMarket({ resolver: { model: 'operator', promptVersion: 'v', contentHash: '0x' } }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    const text = await how();
    expect(text).toContain('an operator decides the outcome');
    expect(text).not.toContain('Judged by');
  });

  test('in Chinese', async () => {
    api.serve(testMarket());
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, { language: 'zh' });
    const text = (await screen.findByRole('region', { name: '结算方式' }, SLOW)).textContent;
    expect(text).toContain('由 gpt-4o-mini 裁定');
    expect(text).toContain('至少 2 个网站');
  });
});

describe('The judge badge', () => {
  test('an AI market wears "AI Judged"; an operator market "Operator Judged" and not "AI Judged"', async () => {
    api.serve(testMarket());
    const ai = await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    await how();
    expect(screen.getByText('AI Judged')).toBeVisible();
    expect(screen.queryByText('Operator Judged')).toBeNull();
    ai.unmount();

    api.serve(testMarket({ resolver: { model: 'operator', promptVersion: 'v', contentHash: '0x' } }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />);
    await how();
    expect(screen.getByText('Operator Judged')).toBeVisible();
    expect(screen.queryByText('AI Judged')).toBeNull();
  });

  test('in Chinese', async () => {
    api.serve(testMarket({ resolver: { model: 'operator', promptVersion: 'v', contentHash: '0x' } }));
    await renderWithApp(<MarketDetail marketId="1" parts={NO_MARKET_PARTS} />, { language: 'zh' });
    await screen.findByRole('region', { name: '结算方式' }, SLOW);
    expect(screen.getByText('运营者裁定')).toBeVisible();
  });
});
