import { useTranslation } from 'react-i18next';
import { MarketsBoard } from '../features/markets/components/markets-board.tsx';
import { Page } from '../ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('predictions.title')} documentTitle={t('pageTitle.predictions')}>
      <MarketsBoard />
    </Page>
  );
}
