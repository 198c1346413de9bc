import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { buttonClassName } from '#ui/button.tsx';

/** docs/product.md §2/§8: unknown routes show 'Oops! Page not found' and a Return to Home link. */
export function Component() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>{t('pageTitle.notFound')}</title>
      <p className="text-7xl font-extrabold text-brand tabular-nums">{t('notFound.code')}</p>
      <h1 className="mt-4 text-2xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-2 text-muted">{t('notFound.body')}</p>
      <Link to="/" className={buttonClassName({ size: 'lg', className: 'mt-8' })}>
        {t('notFound.home')}
      </Link>
    </div>
  );
}
