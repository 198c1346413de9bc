import { describe, expect, test } from 'vitest';
import { createI18n, type MessagesLoader } from './i18n.ts';
import type { Messages } from './translate.ts';

const shellEn = { app: { name: 'BNB Predict' } };
const shellZh = { app: { name: 'BNB 预测' } };
const marketsEn = { markets: { createBet: 'Create Bet' } };
const marketsZh = { markets: { createBet: '创建预测' } };

/** A loader that counts its calls and resolves when told to. */
function deferredLoader(messages: Messages) {
  const loader = { calls: 0, release: () => {} };
  const load: MessagesLoader = () => {
    loader.calls += 1;
    return new Promise((resolve) => {
      loader.release = () => resolve({ default: messages });
    });
  };
  return Object.assign(loader, { load });
}

const ready =
  (messages: Messages): MessagesLoader =>
  () =>
    Promise.resolve({ default: messages });

describe('createI18n', () => {
  test('Starts in English with the messages it was given', () => {
    const i18n = createI18n({ messages: { en: shellEn } });
    expect(i18n.getSnapshot().language).toBe('en');
    expect(i18n.getSnapshot().t('app.name')).toBe('BNB Predict');
  });

  test('A namespace loads once, however many routes ask for it', async () => {
    const markets = deferredLoader(marketsEn);
    const i18n = createI18n({ loaders: { markets: { en: markets.load } } });
    const first = i18n.loadNamespaces(['markets']);
    const second = i18n.loadNamespaces(['markets']);
    markets.release();
    await Promise.all([first, second]);
    expect(markets.calls).toBe(1);
    expect(i18n.getSnapshot().t('markets.createBet')).toBe('Create Bet');
  });

  test('The language switches only once every namespace in use has its Chinese messages', async () => {
    const zhMarkets = deferredLoader(marketsZh);
    const i18n = createI18n({
      messages: { en: shellEn },
      loaders: {
        shell: { zh: ready(shellZh) },
        markets: { en: ready(marketsEn), zh: zhMarkets.load },
      },
    });
    await i18n.loadNamespaces(['shell', 'markets']);
    let notified = 0;
    i18n.subscribe(() => {
      notified += 1;
    });

    const switching = i18n.changeLanguage('zh');
    await Promise.resolve();
    expect(i18n.getSnapshot().language).toBe('en');

    zhMarkets.release();
    await switching;
    const { language, t } = i18n.getSnapshot();
    expect(language).toBe('zh');
    expect(t('app.name')).toBe('BNB 预测');
    expect(t('markets.createBet')).toBe('创建预测');
    expect(notified).toBe(1);
  });

  test('A namespace first needed after the switch loads in the active language', async () => {
    const i18n = createI18n({
      messages: { en: shellEn },
      loaders: { shell: { zh: ready(shellZh) }, markets: { en: ready(marketsEn), zh: ready(marketsZh) } },
    });
    await i18n.loadNamespaces(['shell']);
    await i18n.changeLanguage('zh');
    await i18n.loadNamespaces(['markets']);
    expect(i18n.getSnapshot().t('markets.createBet')).toBe('创建预测');
  });

  test('A failed load can be tried again', async () => {
    let attempts = 0;
    const i18n = createI18n({
      loaders: {
        markets: {
          en: () => {
            attempts += 1;
            return attempts === 1 ? Promise.reject(new Error('offline')) : ready(marketsEn)();
          },
        },
      },
    });
    await expect(i18n.loadNamespaces(['markets'])).rejects.toThrow('offline');
    await i18n.loadNamespaces(['markets']);
    expect(i18n.getSnapshot().t('markets.createBet')).toBe('Create Bet');
  });

  test('Prefetching a language loads its messages without switching to it', async () => {
    const zhShell = deferredLoader(shellZh);
    const i18n = createI18n({ messages: { en: shellEn }, loaders: { shell: { zh: zhShell.load } } });
    await i18n.loadNamespaces(['shell']);
    i18n.prefetchLanguage('zh');
    expect(zhShell.calls).toBe(1);
    zhShell.release();
    await i18n.changeLanguage('zh');
    expect(zhShell.calls).toBe(1);
    expect(i18n.getSnapshot().t('app.name')).toBe('BNB 预测');
  });
});
