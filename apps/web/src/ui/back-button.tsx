import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from './button.tsx';

/**
 * Goes back in the app's history, or to `fallback` when the page was opened directly (a shared
 * link): leaving the app by a Back button would surprise.
 */
export function BackButton({ fallback = '/' }: { fallback?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const goBack = () => {
    if (location.key === 'default') void navigate(fallback);
    else void navigate(-1);
  };
  return (
    <Button variant="ghost" size="sm" onClick={goBack} className="-ml-2 text-muted hover:text-fg">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('app.back')}
    </Button>
  );
}
