import { TriangleAlert } from 'lucide';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button, buttonClassName } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { LogoMark } from '#ui/logo.tsx';

/**
 * docs/product.md §8: a rendering failure shows 'Unexpected Application Error!'. It stands alone (no router
 * links, no providers) because whatever failed may be one of them.
 */
export function ErrorPage() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center">
      <title>{t('pageTitle.error')}</title>
      <LogoMark className="mb-8 size-12" />
      <Icon node={TriangleAlert} aria-hidden="true" className="size-10 text-no" />
      <h1 className="mt-4 text-2xl font-bold">{t('errorPage.title')}</h1>
      <p className="mt-2 text-muted">{t('errorPage.body')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button size="lg" onClick={() => window.location.reload()}>
          {t('errorPage.reload')}
        </Button>
        <a href="/" className={buttonClassName({ variant: 'outline', size: 'lg' })}>
          {t('errorPage.home')}
        </a>
      </div>
    </main>
  );
}
