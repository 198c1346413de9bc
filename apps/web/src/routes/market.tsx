import { useParams } from 'wouter';
import { MarketDetail } from '#features/markets/components/market-detail.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { BackButton } from '#ui/back-button.tsx';
import { Page } from '#ui/page.tsx';
import { MARKET_PARTS } from './parts/market-parts.tsx';

export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <Page
      title={t('market.title', { id })}
      documentTitle={t('pageTitle.market')}
      before={<BackButton fallback="/predictions" />}
    >
      <MarketDetail marketId={id} parts={MARKET_PARTS} />
    </Page>
  );
}
