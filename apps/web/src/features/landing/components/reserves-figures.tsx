import { ShieldAlert, ShieldCheck } from 'lucide';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { useFormat } from '#lib/use-format.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { useSolvency } from '../api/use-solvency.ts';
import { ReservesChecking } from './reserves-checking.tsx';

/**
 * The reserves line and its status: red with < and a written status when the escrow is short (never
 * colour alone). Every figure is the server's: the page formats, it computes nothing.
 */
export default function ReservesFigures() {
  const { t } = useTranslation();
  const format = useFormat();
  const { state, retry } = useSolvency();
  if (state.status === 'loading') return <ReservesChecking />;
  if (state.status === 'error') {
    return (
      <div role="status" className="flex flex-wrap items-center gap-3">
        <p className="text-no">{t('reserves.failed')}</p>
        <Button variant="outline" size="sm" onClick={retry}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }
  const { data } = state;
  return (
    <div className="flex flex-col items-start gap-2">
      <Badge tone={data.covered ? 'yes' : 'no'}>
        <Icon node={data.covered ? ShieldCheck : ShieldAlert} aria-hidden="true" className="size-3.5" />
        {data.covered
          ? t('reserves.coveredStatus')
          : t('reserves.shortStatus', { shortfall: format.bnb(data.shortfallWei) })}
      </Badge>
      <p
        data-testid="reserves-line"
        className={cx('text-lg font-semibold tabular-nums', data.covered ? 'text-fg' : 'text-no')}
      >
        {t(data.covered ? 'reserves.covered' : 'reserves.short', {
          reserves: format.bnb(data.balanceWei),
          owed: format.bnb(data.liabilitiesWei),
          block: data.blockNumber,
        })}
      </p>
    </div>
  );
}
