import type { I18n } from './i18n.ts';
import type { Language } from './translate.ts';

/** BCP 47 tags for the `lang` attribute, so screen readers and fonts pick the right language. */
const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN' };

/** Keeps `<html lang>` in step with the active language (docs/architecture.md: accessibility). */
export function syncDocumentLanguage(i18n: I18n) {
  const sync = () => {
    document.documentElement.lang = HTML_LANG[i18n.getSnapshot().language];
  };
  sync();
  return i18n.subscribe(sync);
}
