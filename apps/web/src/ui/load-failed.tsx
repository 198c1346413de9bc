import { CircleAlert } from 'lucide';
import type { ReactNode } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from './button.tsx';
import { Card } from './card.tsx';
import { Icon } from './icon.tsx';
import { StatusMessage } from './status-message.tsx';

/** A read that failed, in a card: the message and a Retry button that refetches it. */
export function LoadFailed({
  query,
  children,
}: {
  query: { refetch: () => Promise<unknown>; isFetching: boolean };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <StatusMessage
        tone="error"
        icon={<Icon node={CircleAlert} />}
        action={
          <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {t('app.retry')}
          </Button>
        }
      >
        {children}
      </StatusMessage>
    </Card>
  );
}
