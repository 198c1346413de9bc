import { Hourglass } from 'lucide';
import type { ReactNode } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { StatusMessage } from '#ui/status-message.tsx';

/**
 * docs/product.md §2 waiting state: no round to show right now. Before genesis (or after a reset) it says the
 * genesis round has not started; otherwise rounds start by themselves.
 */
export function WaitingState({
  started,
  intervalS,
  action,
}: {
  started: boolean;
  intervalS: number;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <StatusMessage icon={<Icon node={Hourglass} />} action={action}>
        <span className="flex flex-col gap-1">
          <span>{t(started ? 'oracle.waiting.title' : 'oracle.waiting.notStarted')}</span>
          <span className="text-sm font-normal text-muted">
            {started
              ? t('oracle.waiting.body', { minutes: Math.max(1, Math.round(intervalS / 60)) })
              : t('oracle.waiting.notStartedBody')}
          </span>
        </span>
      </StatusMessage>
    </Card>
  );
}
