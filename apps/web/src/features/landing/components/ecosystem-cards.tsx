import { Activity, Plus, TrendingUp } from 'lucide';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '#i18n/use-translation.ts';
import { Badge, LiveDot } from '#ui/badge.tsx';
import { Icon } from '#ui/icon.tsx';
import { InfoTooltip } from '#ui/info-tooltip.tsx';

type AppCard = { to: string; app: 'predictions' | 'oracle'; icon: ReactNode };

const APPS: AppCard[] = [
  { to: '/predictions', app: 'predictions', icon: <Icon node={TrendingUp} className="size-6" /> },
  { to: '/oracle-predictions', app: 'oracle', icon: <Icon node={Activity} className="size-6" /> },
];

/** docs/product.md §2 "Ecosystem": the two apps and a dashed 'More Apps Coming Soon' card. */
export function EcosystemCards() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="ecosystem-title" className="mx-auto w-full max-w-6xl px-4 pb-20">
      <div className="mb-6 text-center">
        <h2 id="ecosystem-title" className="text-2xl font-bold tracking-tight">
          {t('landing.ecosystemTitle')}
        </h2>
        <p className="mt-1 text-muted">{t('landing.ecosystemSubtitle')}</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-3">
        {APPS.map((card) => (
          <li key={card.app}>
            <AppCardView card={card} />
          </li>
        ))}
        <li>
          <div className="flex h-full min-h-48 flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-line-strong p-6 text-center">
            <Icon node={Plus} aria-hidden="true" className="size-6 text-muted" />
            <h3 className="font-semibold">{t('landing.moreApps.title')}</h3>
            <p className="text-sm text-muted">{t('landing.moreApps.description')}</p>
          </div>
        </li>
      </ul>
    </section>
  );
}

function AppCardView({ card }: { card: AppCard }) {
  const { t } = useTranslation();
  const title = t(`landing.${card.app}.title`);
  return (
    // The whole card is the link's click area (its ::after covers the card), while the info button
    // sits above it: no button nested inside a link.
    <article className="group relative flex h-full flex-col gap-3 rounded-xl border border-line bg-surface p-6 transition-colors hover:border-brand has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-brand">
      <div className="flex items-center justify-between">
        <span
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-lg bg-brand/10 text-brand"
        >
          {card.icon}
        </span>
        <Badge tone="yes">
          <LiveDot />
          {t('landing.live')}
        </Badge>
      </div>
      <div className="flex items-center gap-2">
        <h3 className="text-xl font-bold">
          <Link
            to={card.to}
            className="outline-none after:absolute after:inset-0 after:rounded-xl group-hover:text-brand"
          >
            {title}
          </Link>
        </h3>
        <InfoTooltip label={t('landing.aboutApp', { app: title })}>
          {t(`landing.${card.app}.info`)}
        </InfoTooltip>
      </div>
      <p className="text-sm font-medium text-brand">{t('landing.category')}</p>
      <p className="text-sm leading-relaxed text-muted">{t(`landing.${card.app}.description`)}</p>
    </article>
  );
}
