import { describe, expect, test } from 'vitest';
import shellEn from '#i18n/en.json';
import { LANGUAGES } from '#i18n/translate.ts';
import { ALL_MESSAGES } from '#testing/all-messages.ts';
import { LOCALE_LOADERS } from './locale-loaders.ts';

describe('locale loaders', () => {
  test.each(LANGUAGES)('Loading every namespace in %s gives every message of the app', async (language) => {
    const loaded: Record<string, unknown> = language === 'en' ? { ...shellEn } : {};
    for (const loaders of Object.values(LOCALE_LOADERS)) {
      const load = language === 'en' ? ('en' in loaders ? loaders.en : undefined) : loaders.zh;
      if (load) Object.assign(loaded, (await load()).default);
    }
    expect(loaded).toEqual(ALL_MESSAGES[language]);
  });
});
