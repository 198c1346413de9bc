import { use, useSyncExternalStore } from 'react';
import type { I18n } from './i18n.ts';
import { I18nContext } from './i18n-context.ts';
import type { Language, TFunction } from './translate.ts';

export type { TFunction } from './translate.ts';

/** The active language's `t`, and the i18n instance; re-renders when the language changes. */
export function useTranslation(): { t: TFunction; language: Language; i18n: I18n } {
  const i18n = use(I18nContext);
  if (!i18n) throw new Error('useTranslation needs an <I18nContext> provider above it');
  const { t, language } = useSyncExternalStore(i18n.subscribe, i18n.getSnapshot);
  return { t, language, i18n };
}
