import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MarketsBoard } from '../features/markets/components/markets-board.tsx';
import { Button } from '../ui/button.tsx';
import { Page } from '../ui/page.tsx';

export function Component() {
  const { t } = useTranslation();
  const [createOpen, setCreateOpen] = useState(false);
  return (
    <Page
      title={t('predictions.title')}
      documentTitle={t('pageTitle.predictions')}
      aside={
        <Button onClick={() => setCreateOpen(true)}>
          <Plus aria-hidden="true" className="size-4" />
          {t('markets.createBet')}
        </Button>
      }
    >
      <MarketsBoard createOpen={createOpen} onCreateOpenChange={setCreateOpen} />
    </Page>
  );
}
