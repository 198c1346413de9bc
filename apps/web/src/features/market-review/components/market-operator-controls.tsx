import { MAX_OPERATOR_REASON_LENGTH } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import { ShieldCheck } from 'lucide';
import { useId, useState } from 'react';
import { MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';
import { CardSection } from '#ui/card-section.tsx';
import { Field } from '#ui/field.tsx';
import { toast } from '#ui/toast.ts';
import { useSignedAction } from '#wallet/hooks/use-signed-action.ts';
import { type MarketOperatorDecision, runMarketOperatorAction } from '../api/market-operator-action.ts';

/**
 * Resolve YES / Resolve NO / Void for an operator (docs/architecture.md "Operators"), acting only with the
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
  useNamespace('review');
  useNamespace('marketActions');
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const action = useSignedAction({
    address,
    action: (signer, decision: MarketOperatorDecision) =>
      runMarketOperatorAction(signer, { marketId: market.id, decision, reason }),
    onSuccess: (answer) => {
      toast.success(
        answer.action === 'void'
          ? t('marketActions.operator.voided')
          : t('marketActions.operator.resolved', { result: answer.result }),
      );
    },
    failedMessage: t('marketActions.operator.failed'),
    invalidates: MARKETS_QUERY_KEY,
  });
  const decide = (decision: MarketOperatorDecision) => {
    if (!reason.trim()) return void toast.error(t('marketActions.operator.reasonRequired'));
    action.mutate(decision);
  };
  const bettingClosed = market.status !== 'active' || nowMs >= Date.parse(market.deadline);
  // On a verdict in review (decision 011) the same actions confirm it or overturn it.
  const proposal = market.status === 'settling' ? (market.review ?? null) : null;
  const label = (result: 'YES' | 'NO' | 'VOID', plain: string) =>
    proposal === null
      ? plain
      : t(proposal.result === result ? 'review.operator.confirm' : 'review.operator.overturn', { result });

  return (
    <CardSection title={t('marketActions.operator.title')} icon={ShieldCheck} className="p-4 text-sm">
      {proposal && (
        <p className="font-medium">
          {t('review.operator.proposal', { result: proposal.result, count: proposal.flagCount })}
        </p>
      )}
      <Field className="contents" id={`${id}-reason`} label={t('marketActions.operator.reason')}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            maxLength={MAX_OPERATOR_REASON_LENGTH}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        )}
      </Field>
      {bettingClosed ? (
        <div className="grid grid-cols-2 gap-2">
          <Button
            variant="outline"
            disabled={action.isPending}
            onClick={() => decide({ kind: 'resolve', result: 'YES' })}
          >
            {label('YES', t('marketActions.operator.resolveYes'))}
          </Button>
          <Button
            variant="outline"
            disabled={action.isPending}
            onClick={() => decide({ kind: 'resolve', result: 'NO' })}
          >
            {label('NO', t('marketActions.operator.resolveNo'))}
          </Button>
        </div>
      ) : (
        <p className="text-xs text-muted">{t('marketActions.operator.resolveAfterDeadline')}</p>
      )}
      <Button variant="danger" disabled={action.isPending} onClick={() => decide({ kind: 'void' })}>
        {label('VOID', t('marketActions.operator.void'))}
      </Button>
      {action.isPending && <p className="text-xs text-brand">{t('marketActions.operator.signing')}</p>}
    </CardSection>
  );
}
