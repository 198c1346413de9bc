import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cx('size-8 shrink-0', className)}>
      <rect width="32" height="32" rx="8" fill="#1e2329" />
      <path
        fill="#F0B90B"
        d="M16 5l4.2 4.2L16 13.4l-4.2-4.2zM9.2 11.8l4.2 4.2-4.2 4.2L5 16zm13.6 0L27 16l-4.2 4.2-4.2-4.2zM16 18.6l4.2 4.2L16 27l-4.2-4.2z"
      />
    </svg>
  );
}

/** The logo, a link to the landing page. `compact` hides the name on narrow screens. */
export function Logo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Link
      to="/"
      className="inline-flex items-center gap-2 rounded-lg text-lg font-bold tracking-tight text-fg"
    >
      <LogoMark />
      <span className={cx(compact && 'sr-only sm:not-sr-only')}>{t('app.name')}</span>
    </Link>
  );
}
