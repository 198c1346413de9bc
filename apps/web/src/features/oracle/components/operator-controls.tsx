import { ShieldCheck } from 'lucide';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { CardSection } from '#ui/card-section.tsx';
import { toast } from '#ui/toast.ts';
import { useSignedAction } from '#wallet/hooks/use-signed-action.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';
import { runOperatorAction } from '../api/operator-action.ts';

/**
 * Start Genesis Round / Reset Rounds, shown to an operator only and acting only with its signature
 * (docs/architecture.md "Operators"): the wallet signs EIP-712 typed data of the action and a server nonce.
 */
export function OperatorControls({ address, started }: { address: string; started: boolean }) {
  const { t } = useTranslation();
  const action = useSignedAction({
    address,
    action: runOperatorAction,
    onSuccess: (answer) => {
      toast.success(
        t(answer.action === 'genesis' ? 'oracle.operator.genesisDone' : 'oracle.operator.resetDone'),
      );
    },
    failedMessage: t('oracle.operator.failed'),
    invalidates: ROUNDS_QUERY_KEY,
  });

  return (
    <CardSection title={t('oracle.operator.title')} icon={ShieldCheck}>
      {started ? (
        <Button variant="danger" disabled={action.isPending} onClick={() => action.mutate('reset')}>
          {t('oracle.operator.reset')}
        </Button>
      ) : (
        <Button disabled={action.isPending} onClick={() => action.mutate('genesis')}>
          {t('oracle.operator.genesis')}
        </Button>
      )}
      {action.isPending && <p className="text-xs text-brand">{t('oracle.operator.signing')}</p>}
    </CardSection>
  );
}
