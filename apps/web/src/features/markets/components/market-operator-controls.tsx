import type { Market } from '@pm/core/contract/markets';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide';
import { useId, useState } from 'react';
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
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';
import { type MarketOperatorDecision, runMarketOperatorAction } from '../api/market-operator-action.ts';

/**
 * Resolve YES / Resolve NO / Void for an operator (DESIGN "Operators"), acting only with the
 * wallet's EIP-712 signature of the market, the decision and the reason bettors will read.
 * YES and NO only once betting has closed; void at any time before settlement.
 */
export function MarketOperatorControls({
  market,
  address,
  nowMs,
}: {
  market: Market;
  address: string;
  nowMs: number;
}) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const { data: config } = useAppConfig();
  const signTypedData = useSignTypedData();
  const [reason, setReason] = useState('');
  const action = useMutation({
    mutationFn: (decision: MarketOperatorDecision) =>
      runMarketOperatorAction({
        marketId: market.id,
        decision,
        reason,
        chainId: config.chainId,
        address,
        signTypedData: (typed) => signTypedData.mutateAsync({ account: getAddress(address), ...typed }),
      }),
    onSuccess: (answer) => {
      toast.success(
        answer.action === 'void'
          ? t('markets.operator.voided')
          : t('markets.operator.resolved', { result: answer.result }),
      );
    },
    onError: (error) =>
      toast.error(
        error instanceof ApiError
          ? apiErrorMessage(t, error, t('markets.operator.failed'))
          : (walletErrorMessage(error) ?? t('markets.operator.failed')),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MARKETS_QUERY_KEY }),
  });
  const decide = (decision: MarketOperatorDecision) => {
    if (!reason.trim()) return void toast.error(t('markets.operator.reasonRequired'));
    action.mutate(decision);
  };
  const bettingClosed = market.status !== 'active' || nowMs >= Date.parse(market.deadline);
  // On a verdict in review (issue 11) the same actions confirm it or overturn it.
  const proposal = market.status === 'settling' ? (market.review ?? null) : null;
  const label = (result: 'YES' | 'NO' | 'VOID', plain: string) =>
    proposal === null
      ? plain
      : t(proposal.result === result ? 'review.operator.confirm' : 'review.operator.overturn', { result });

  return (
    <Card className="p-4">
      <section aria-label={t('markets.operator.title')} className="flex flex-col gap-3 text-sm">
        <h2 className="flex items-center gap-2 font-semibold text-muted">
          <Icon node={ShieldCheck} aria-hidden="true" className="size-4 text-brand" />
          {t('markets.operator.title')}
        </h2>
        {proposal && (
          <p className="font-medium">
            {t('review.operator.proposal', { result: proposal.result, count: proposal.flagCount })}
          </p>
        )}
        <label htmlFor={`${id}-reason`} className="font-medium">
          {t('markets.operator.reason')}
        </label>
        <textarea
          id={`${id}-reason`}
          rows={2}
          maxLength={2000}
          className="w-full rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        {bettingClosed ? (
          <div className="grid grid-cols-2 gap-2">
            <Button
              variant="outline"
              disabled={action.isPending}
              onClick={() => decide({ kind: 'resolve', result: 'YES' })}
            >
              {label('YES', t('markets.operator.resolveYes'))}
            </Button>
            <Button
              variant="outline"
              disabled={action.isPending}
              onClick={() => decide({ kind: 'resolve', result: 'NO' })}
            >
              {label('NO', t('markets.operator.resolveNo'))}
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted">{t('markets.operator.resolveAfterDeadline')}</p>
        )}
        <Button variant="danger" disabled={action.isPending} onClick={() => decide({ kind: 'void' })}>
          {label('VOID', t('markets.operator.void'))}
        </Button>
        {action.isPending && <p className="text-xs text-brand">{t('markets.operator.signing')}</p>}
      </section>
    </Card>
  );
}
