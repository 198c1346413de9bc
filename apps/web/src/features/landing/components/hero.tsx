import { useTranslation } from '#i18n/use-translation.ts';
import { Badge, LiveDot } from '#ui/badge.tsx';
import { buttonClassName } from '#ui/button.tsx';
import { ParticleField } from './particle-field.tsx';
import { PointerHeadline } from './pointer-headline.tsx';

const X_URL = 'https://x.com';

/** docs/product.md §2 hero: badge, headline, subtitle, 'Follow us on X', over 50 particles. */
export function Hero() {
  const { t } = useTranslation();
  return (
    <section className="relative isolate overflow-hidden">
      <ParticleField />
      <div className="relative mx-auto flex max-w-4xl flex-col items-center px-4 pt-16 pb-20 text-center sm:pt-24 sm:pb-28">
        <Badge tone="brand" className="mb-6 px-3 py-1 text-sm">
          <LiveDot />
          {t('landing.badge')}
        </Badge>
        <PointerHeadline
          text={t('landing.headline')}
          className="text-4xl leading-tight font-extrabold tracking-tight text-balance sm:text-6xl"
        />
        <p className="mt-6 max-w-2xl text-base leading-relaxed text-muted text-pretty sm:text-lg">
          {t('landing.subtitle')}
        </p>
        <a
          href={X_URL}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClassName({ variant: 'outline', size: 'lg', className: 'mt-8' })}
        >
          <XLogo />
          {t('landing.followX')}
          <span className="sr-only">{t('landing.opensInNewTab')}</span>
        </a>
      </div>
    </section>
  );
}

function XLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4 fill-current">
      <path d="M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z" />
    </svg>
  );
}
