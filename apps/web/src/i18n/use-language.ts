import { useTranslation } from 'react-i18next';
import { isLanguage, type Language } from './i18n.ts';

/** The active language and a toggle between the two (spec §4). */
export function useLanguage() {
  const { i18n } = useTranslation();
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const toggleLanguage = () => {
    void i18n.changeLanguage(language === 'en' ? 'zh' : 'en');
  };
  return { language, toggleLanguage };
}
