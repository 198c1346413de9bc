import { EcosystemCards } from '#features/landing/components/ecosystem-cards.tsx';
import { Hero } from '#features/landing/components/hero.tsx';
import { ReservesCard } from '#features/landing/components/reserves-card.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { Logo } from '#ui/logo.tsx';

/** docs/product.md §2 landing: only the centred logo on top (no wallet: this page ships no wallet code). */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <title>{t('pageTitle.landing')}</title>
      <header className="flex h-16 items-center justify-center border-b border-line">
        <Logo />
      </header>
      <main id="main">
        <Hero />
        <EcosystemCards />
        <ReservesCard />
      </main>
    </>
  );
}
