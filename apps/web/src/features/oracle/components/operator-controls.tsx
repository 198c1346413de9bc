import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide';
import { getAddress } from 'viem';
import { useSignTypedData } from 'wagmi';
import { useAppConfig } from '../../../api/get-app-config.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { apiErrorMessage } from '../../../lib/error-message.ts';
import { Button } from '../../../ui/button.tsx';
import { Card } from '../../../ui/card.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { toast } from '../../../ui/toast.ts';
import { walletErrorMessage } from '../../../wallet/utils/wallet-error-message.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';
import { runOperatorAction } from '../api/operator-action.ts';

/**
 * Start Genesis Round / Reset Rounds, shown to an operator only and acting only with its signature
 * (DESIGN "Operators"): the wallet signs EIP-712 typed data of the action and a server nonce.
 */
export function OperatorControls({ address, started }: { address: string; started: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: config } = useAppConfig();
  const signTypedData = useSignTypedData();
  const action = useMutation({
    mutationFn: (kind: 'genesis' | 'reset') =>
      runOperatorAction({
        action: kind,
        chainId: config.chainId,
        address,
        signTypedData: (typed) => signTypedData.mutateAsync({ account: getAddress(address), ...typed }),
      }),
    onSuccess: (answer) => {
      toast.success(
        t(answer.action === 'genesis' ? 'oracle.operator.genesisDone' : 'oracle.operator.resetDone'),
      );
    },
    onError: (error) =>
      toast.error(
        error instanceof ApiError
          ? apiErrorMessage(t, error, t('oracle.operator.failed'))
          : (walletErrorMessage(error) ?? t('oracle.operator.failed')),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ROUNDS_QUERY_KEY }),
  });

  return (
    <Card className="p-4 sm:p-5">
      <section aria-label={t('oracle.operator.title')} className="flex flex-col gap-3">
        <h2 className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={ShieldCheck} aria-hidden="true" className="size-4 text-brand" />
          {t('oracle.operator.title')}
        </h2>
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
      </section>
    </Card>
  );
}
