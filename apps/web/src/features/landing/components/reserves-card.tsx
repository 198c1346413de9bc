import { ShieldAlert, ShieldCheck, Vault } from 'lucide';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { cx } from '../../../lib/cx.ts';
import { useFormat } from '../../../lib/format.ts';
import { Badge } from '../../../ui/badge.tsx';
import { Button } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { useSolvency } from '../api/use-solvency.ts';

/**
 * The vault card (issue 20, docs/architecture.md "Proof of reserves"): "Reserves X BNB ≥ owed Y BNB
 * at block N", red with < and a written status when the vault is short (never colour alone).
 * Every figure is the server's: the page formats, it computes nothing.
 */
export function ReservesCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const { state, retry } = useSolvency();
  return (
    <section aria-labelledby="reserves-title" className="mx-auto w-full max-w-6xl px-4 pb-20">
      <div
        className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-6"
        aria-busy={state.status === 'loading'}
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="reserves-title" className="flex items-center gap-2 text-lg font-bold">
            <Icon node={Vault} aria-hidden="true" className="size-5 text-brand" />
            {t('landing.reserves.title')}
          </h2>
          {state.status === 'ready' && (
            <Badge tone={state.data.covered ? 'yes' : 'no'}>
              <Icon
                node={state.data.covered ? ShieldCheck : ShieldAlert}
                aria-hidden="true"
                className="size-3.5"
              />
              {state.data.covered
                ? t('landing.reserves.coveredStatus')
                : t('landing.reserves.shortStatus', { shortfall: format.bnb(state.data.shortfallWei) })}
            </Badge>
          )}
        </div>
        {state.status === 'loading' && (
          <p role="status" className="text-muted">
            {t('landing.reserves.loading')}
          </p>
        )}
        {state.status === 'error' && (
          <div role="status" className="flex flex-wrap items-center gap-3">
            <p className="text-no">{t('landing.reserves.failed')}</p>
            <Button variant="outline" size="sm" onClick={retry}>
              {t('app.retry')}
            </Button>
          </div>
        )}
        {state.status === 'ready' && (
          <p
            data-testid="reserves-line"
            className={cx('text-lg font-semibold tabular-nums', state.data.covered ? 'text-fg' : 'text-no')}
          >
            {t(state.data.covered ? 'landing.reserves.covered' : 'landing.reserves.short', {
              reserves: format.bnb(state.data.vaultBalanceWei),
              owed: format.bnb(state.data.liabilitiesWei),
              block: state.data.blockNumber,
            })}
          </p>
        )}
        <p className="text-sm leading-relaxed text-muted">
          {t('landing.reserves.note')}{' '}
          <a href="/api/solvency" target="_blank" rel="noopener" className="text-brand underline">
            {t('landing.reserves.details')}
            <span className="sr-only">{t('landing.opensInNewTab')}</span>
          </a>
        </p>
      </div>
    </section>
  );
}
