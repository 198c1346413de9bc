import { FLAG_REASON_MAX } from '@pm/core/contract/review';
import { Flag } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { useNamespace } from '../../../i18n/use-namespace.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { Button } from '../../../ui/button.tsx';
import { Icon } from '../../../ui/icon.tsx';
import { toast } from '../../../ui/toast.ts';
import { useSignedAction } from '../../../wallet/hooks/use-signed-action.ts';
import { flagMarket } from '../api/flag-market.ts';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';

/**
 * A bettor flags the proposed verdict with a short reason, signed by their wallet (EIP-712, issue
 * 11). Loaded only when shown: to a connected bettor of the market during its review window.
 */
export function FlagVerdictForm({
  marketId,
  address,
  nowMs,
}: {
  marketId: number;
  address: string;
  nowMs: number;
}) {
  useNamespace('review');
  const { t } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState('');
  const flag = useSignedAction({
    address,
    action: (signer) => flagMarket(signer, { marketId, reason, nowS: nowMs / 1000 }),
    onSuccess: () => {
      toast.success(t('review.flag.sent'));
      setReason('');
    },
    failedMessage: t('review.flag.failed'),
    invalidates: MARKETS_QUERY_KEY,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return void toast.error(t('review.flag.reasonRequired'));
    flag.mutate();
  };

  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={submit}
      className="flex flex-col gap-2 rounded-lg border border-no/40 bg-surface p-3 text-sm"
    >
      <h3 id={`${id}-title`} className="flex items-center gap-2 font-semibold">
        <Icon node={Flag} aria-hidden="true" className="size-4 text-no" />
        {t('review.flag.title')}
      </h3>
      <p className="text-xs text-muted">{t('review.flag.hint')}</p>
      <label htmlFor={`${id}-reason`} className="font-medium">
        {t('review.flag.reason')}
      </label>
      <textarea
        id={`${id}-reason`}
        rows={3}
        maxLength={FLAG_REASON_MAX}
        aria-describedby={`${id}-count`}
        className="w-full rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <p id={`${id}-count`} className="self-end text-xs tabular-nums text-muted">
        {t('review.flag.count', { count: reason.length, max: FLAG_REASON_MAX })}
      </p>
      <Button type="submit" variant="danger" disabled={flag.isPending}>
        {t('review.flag.submit')}
      </Button>
      {flag.isPending && (
        <p role="status" className="text-xs text-brand">
          {t('review.flag.signing')}
        </p>
      )}
    </form>
  );
}
