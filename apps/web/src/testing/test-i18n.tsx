import type { ReactNode } from 'react';
import { createI18n } from '#i18n/i18n.ts';
import { I18nContext } from '#i18n/i18n-context.ts';
import type { Language } from '#i18n/translate.ts';
import { ALL_MESSAGES } from './all-messages.ts';

/** For component tests: every message of both languages loaded, in the language asked for. */
export function TestI18n({ language = 'en', children }: { language?: Language; children: ReactNode }) {
  return <I18nContext value={createI18n({ language, messages: ALL_MESSAGES })}>{children}</I18nContext>;
}
