import { CHAINS, isSupportedChainId } from '@pm/core/constants';
import { Radio } from 'lucide';
import { useAppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Icon } from '#ui/icon.tsx';

/** docs/product.md §2 live-mode notice: bets are real payments, and where the prices come from. */
export function LiveNotice() {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const symbol = isSupportedChainId(config.chainId) ? CHAINS[config.chainId].symbol : 'BNB';
  return (
    <aside
      aria-label={t('oracle.liveNotice.title')}
      className="flex items-start gap-3 rounded-xl border border-brand/40 bg-brand/10 px-4 py-3 text-sm"
    >
      <Icon node={Radio} aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
      <p>
        <strong className="font-semibold text-brand">{t('oracle.liveNotice.title')}</strong>{' '}
        {t('oracle.liveNotice.body', {
          symbol,
          chain: config.chainName,
          source: t(`oracle.source.${config.priceFeed}`),
        })}
      </p>
    </aside>
  );
}
