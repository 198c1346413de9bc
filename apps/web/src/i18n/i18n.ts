import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import marketsEn from '../features/markets/locales/en.json';
import marketsZh from '../features/markets/locales/zh.json';
import myBetsEn from '../features/my-bets/locales/en.json';
import myBetsZh from '../features/my-bets/locales/zh.json';
import oracleEn from '../features/oracle/locales/en.json';
import oracleZh from '../features/oracle/locales/zh.json';
import en from './en.json';
import zh from './zh.json';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

// Features keep their strings in features/<name>/locales (one top-level key each, e.g. "oracle").
export const resources = {
  en: { translation: { ...en, ...oracleEn, ...marketsEn, ...myBetsEn } },
  zh: { translation: { ...zh, ...oracleZh, ...marketsZh, ...myBetsZh } },
} as const;

/** BCP 47 tags for the `lang` attribute, so screen readers and fonts pick the right language. */
const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN' };

export function isLanguage(value: string): value is Language {
  return LANGUAGES.some((language) => language === value);
}

/**
 * Spec §4: en or zh, toggled by the button, held in memory only, default en. No language detector
 * and no storage on purpose: a reload starts in English again.
 */
export function createI18n() {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: LANGUAGES,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

/** Keeps `<html lang>` in step with the active language (DESIGN: accessibility). */
export function syncDocumentLanguage(language: string) {
  document.documentElement.lang = isLanguage(language) ? HTML_LANG[language] : language;
}
