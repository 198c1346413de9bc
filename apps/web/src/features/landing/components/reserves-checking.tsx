import { useTranslation } from '#i18n/use-translation.ts';

/** The reserves card's loading state, also while the figures' code is on its way. */
export function ReservesChecking() {
  const { t } = useTranslation();
  return (
    <p role="status" className="text-muted">
      {t('reserves.loading')}
    </p>
  );
}
