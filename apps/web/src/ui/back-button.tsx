import { ArrowLeft } from 'lucide';
import { useLocation } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { canGoBackInApp } from '#lib/navigation-history.ts';
import { Button } from './button.tsx';
import { Icon } from './icon.tsx';

/**
 * Goes back in the app's history, or to `fallback` when the page was opened directly (a shared
 * link): leaving the app by a Back button would surprise.
 */
export function BackButton({ fallback = '/' }: { fallback?: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const goBack = () => {
    if (canGoBackInApp()) window.history.back();
    else navigate(fallback);
  };
  return (
    <Button variant="ghost" size="sm" onClick={goBack} className="-ml-2 text-muted hover:text-fg">
      <Icon node={ArrowLeft} aria-hidden="true" className="size-4" />
      {t('app.back')}
    </Button>
  );
}
