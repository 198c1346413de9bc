import { OracleBoard } from '#features/oracle/components/oracle-board.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { Page } from '#ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('oracle.title')} documentTitle={t('pageTitle.oracle')}>
      <OracleBoard />
    </Page>
  );
}
