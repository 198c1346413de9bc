import type { Round } from '@pm/core/contract/oracle';
import { FlaskConical } from 'lucide';
import { useMemo } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Badge } from '#ui/badge.tsx';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { usePriceHistory } from '../api/get-price-history.ts';
import { useLivePrice } from '../hooks/use-live-price.ts';
import { PriceChart } from './price-chart.tsx';

/**
 * docs/product.md §2 BNB/USD price card: the server's latest price (every 3 s and on realtime `prices`), its
 * source ("Simulated" said plainly), and the last hour with the current round's lock price, lock and close.
 */
export function PriceCard({ currentRound }: { currentRound: Round | null }) {
  const { t, language } = useTranslation();
  const format = useFormat();
  const price = useLivePrice();
  const history = usePriceHistory();
  const latest = price.data;
  const points = useMemo(
    () => [...(history.data?.points ?? []), ...(latest ? [{ usd: latest.usd, at: latest.updatedAt }] : [])],
    [history.data, latest],
  );

  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5">
      <section aria-label={t('oracle.price.title')} className="flex flex-col gap-3">
        <header className="flex items-center justify-between gap-2">
          <h2 className="text-sm font-semibold text-muted">{t('oracle.price.title')}</h2>
          <div className="flex gap-2">
            {price.data?.stale && <Badge tone="no">{t('oracle.price.delayed')}</Badge>}
            {price.data?.source === 'simulated' ? (
              <Badge tone="brand" title={t('oracle.price.simulatedHint')}>
                <Icon node={FlaskConical} aria-hidden="true" className="size-3.5" />
                {t('oracle.price.simulated')}
              </Badge>
            ) : price.data ? (
              <Badge>{t(`oracle.source.${price.data.source}`)}</Badge>
            ) : null}
          </div>
        </header>
        <p className="text-3xl font-bold tabular-nums" data-testid="bnb-price" aria-live="off">
          {price.data ? format.usd(price.data.usd) : price.isError ? t('oracle.price.unavailable') : '\u00a0'}
        </p>
        {price.data && (
          <p className="-mt-2 text-xs text-muted tabular-nums">
            {t('oracle.price.updatedAt', {
              time: new Date(price.data.updatedAt).toLocaleTimeString(language),
            })}
          </p>
        )}
        <PriceChart points={points} round={currentRound} />
      </section>
    </Card>
  );
}
