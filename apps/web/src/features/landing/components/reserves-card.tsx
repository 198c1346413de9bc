import { Landmark } from 'lucide';
import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Icon } from '#ui/icon.tsx';
import { ReservesChecking } from './reserves-checking.tsx';

// The figures, the API client and the contract's schemas load once the card is in view: below the
// fold, they are no part of the landing's JS at start (decision 006, as the charts of decision 013).
const ReservesFigures = lazy(() => import('./reserves-figures.tsx'));

/**
 * The vault card (docs/architecture.md "Proof of reserves"): "Reserves X BNB ≥ owed
 * Y BNB at block N" from GET /api/solvency, the escrow contract's own figures at one block, with a link
 * to the figures themselves.
 */
export function ReservesCard() {
  const { t } = useTranslation();
  const card = useRef<HTMLDivElement>(null);
  const inView = useInView(card);
  return (
    <section aria-labelledby="reserves-title" className="mx-auto w-full max-w-6xl px-4 pb-20">
      <div ref={card} className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-6">
        <h2 id="reserves-title" className="flex items-center gap-2 text-lg font-bold">
          <Icon node={Landmark} aria-hidden="true" className="size-5 text-brand" />
          {t('reserves.title')}
        </h2>
        {inView ? (
          <Suspense fallback={<ReservesChecking />}>
            <ReservesFigures />
          </Suspense>
        ) : (
          <ReservesChecking />
        )}
        <p className="text-sm leading-relaxed text-muted">
          {t('reserves.note')}{' '}
          <a href="/api/solvency" target="_blank" rel="noopener" className="text-brand underline">
            {t('reserves.details')}
            <span className="sr-only">{t('landing.opensInNewTab')}</span>
          </a>
        </p>
      </div>
    </section>
  );
}

/** True from the moment `element` enters the viewport, and from then on. */
function useInView(element: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (inView || !target) return;
    if (typeof IntersectionObserver === 'undefined') {
      setInView(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setInView(true);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [inView, element]);
  return inView;
}
