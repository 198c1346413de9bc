import { MyBetsList } from '#features/my-bets/components/my-bets-list.tsx';
import { useTranslation } from '#i18n/use-translation.ts';
import { Page } from '#ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('myBets.title')} documentTitle={t('pageTitle.myBets')}>
      <MyBetsList />
    </Page>
  );
}
