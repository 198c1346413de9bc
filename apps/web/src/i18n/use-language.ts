import type { Language } from './translate.ts';
import { useTranslation } from './use-translation.ts';

/** The active language and a toggle between the two (docs/product.md §4). */
export function useLanguage() {
  const { language, i18n } = useTranslation();
  const other: Language = language === 'en' ? 'zh' : 'en';
  return {
    language,
    toggleLanguage: () => void i18n.changeLanguage(other),
    /** Called on hover and focus, so the switch is instant by the time the user clicks. */
    prefetchOtherLanguage: () => i18n.prefetchLanguage(other),
  };
}
