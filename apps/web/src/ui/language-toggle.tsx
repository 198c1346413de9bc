import { Languages } from 'lucide';
import { useLanguage } from '#i18n/use-language.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from './button.tsx';
import { Icon } from './icon.tsx';

/** docs/product.md §2: shows '中文' while English is active and 'English' while Chinese is. */
export function LanguageToggle() {
  const { t } = useTranslation();
  const { toggleLanguage, prefetchOtherLanguage } = useLanguage();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={toggleLanguage}
      onPointerEnter={prefetchOtherLanguage}
      onFocus={prefetchOtherLanguage}
      className="px-2"
    >
      <Icon node={Languages} aria-hidden="true" className="hidden size-4 text-muted sm:block" />
      {/* The label names the other language, in that language. */}
      <span lang={t('language.toggleLang')}>{t('language.toggle')}</span>
    </Button>
  );
}
