import { FLAG_REASON_MAX } from '@pm/core/contract/review';
import { Flag } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { getAddress } from 'viem';
import { useSignTypedData } from 'wagmi';
import { useAppConfig } from '#api/get-app-config.ts';
import { MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Field } from '#ui/field.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';
import { PaymentDialog } from '#wallet/components/payment-dialog.tsx';
import { usePaymentDialog } from '#wallet/hooks/use-payment-dialog.ts';
import { walletErrorMessage } from '#wallet/utils/wallet-error-message.ts';
import { postFlag, type SignedFlag, signFlag } from '../api/flag-market.ts';
import { flagDepositCall } from '../utils/flag-deposit.ts';

/**
 * A bettor flags the proposed verdict with a short reason, signed by their wallet (EIP-712,
 * decision 011), and a bond that is a dispute deposit into the escrow (decision 026, "Flag bonds"):
 * sign, then the payment step (the escrow's `deposit` for the market's key, kind flag, built by the one
 * encoder `depositCall` with `flagBondTerms`, flag-deposit.ts; the contract sends the pending settlement back), then
 * the flag is posted with the deposit's hash. The bond is the contract's `disputeBond`, read by the
 * server (market.review.bondWei). The form says what the bond costs and what becomes of it. Loaded
 * only when shown: to a connected bettor of the market during its review window.
 */
export function FlagVerdictForm({
  marketId,
  address,
  nowMs,
  bondWei,
  escrowMarket,
}: {
  marketId: number;
  address: string;
  nowMs: number;
  /** The bond, from the server, which reads the contract's disputeBond (market.review.bondWei). */
  bondWei: string;
  /** The market's escrow id and close: its key on the escrow (GET /api/config's `escrow` the contract). */
  escrowMarket: { escrowId: `0x${string}`; closesAt: number };
}) {
  useNamespace('review');
  const { t } = useTranslation();
  const format = useFormat();
  const id = useId();
  const { data: config } = useAppConfig();
  const signTypedData = useSignTypedData();
  const [reason, setReason] = useState('');
  const [signing, setSigning] = useState(false);
  const bond = format.bnb(bondWei, { decimals: 4, trim: true });
  // No escrow configured: the server takes no flag (ESCROW_NOT_CONFIGURED), so none is offered.
  const deposit = config.escrow ? flagDepositCall(config.escrow.address, escrowMarket, bondWei) : null;
  const payment = usePaymentDialog<SignedFlag>({
    recordingMessage: t('review.flag.recording'),
    // Nothing kept once paid: a dispute nobody posts a flag for is refunded by the server's
    // reconciliation after its grace.
    record: (signed, txHash) => postFlag(marketId, { ...signed, txHash, amountWei: bondWei }),
    messages: {
      recorded: t('review.flag.sent'),
      pending: t('review.flag.pending'),
      failed: t('review.flag.failed'),
    },
    invalidates: MARKETS_QUERY_KEY,
    onRecorded: () => setReason(''),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return void toast.error(t('review.flag.reasonRequired'));
    setSigning(true);
    try {
      const signer = {
        address,
        chainId: config.chainId,
        signTypedData: (typed: Parameters<typeof signTypedData.mutateAsync>[0]) =>
          signTypedData.mutateAsync({ ...typed, account: getAddress(address) }),
      };
      const signed = await signFlag(signer, { marketId, reason, nowS: nowMs / 1000 });
      if (deposit) payment.pay({ request: signed, deposit });
    } catch (error) {
      toast.error(walletErrorMessage(error) ?? t('review.flag.failed'));
    } finally {
      setSigning(false);
    }
  };

  if (!deposit) return null;
  return (
    <>
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
        <p className="font-semibold tabular-nums" data-testid="flag-bond">
          {t('review.flag.bond', { amount: bond })}
        </p>
        <p className="text-xs text-muted">{t('review.flag.bondFate')}</p>
        <Field
          className="contents"
          id={`${id}-reason`}
          label={t('review.flag.reason')}
          describedBy={`${id}-count`}
          after={
            <p id={`${id}-count`} className="self-end text-xs tabular-nums text-muted">
              {t('review.flag.count', { count: reason.length, max: FLAG_REASON_MAX })}
            </p>
          }
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              maxLength={FLAG_REASON_MAX}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" variant="danger" disabled={signing || payment.paying !== null}>
          {t('review.flag.submit')}
        </Button>
        {signing && (
          <p role="status" className="text-xs text-brand">
            {t('review.flag.signing')}
          </p>
        )}
      </form>
      {payment.dialog && <PaymentDialog {...payment.dialog} />}
    </>
  );
}
