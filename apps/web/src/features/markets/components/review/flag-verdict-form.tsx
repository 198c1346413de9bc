import type { FlagMarketBody } from '@pm/core/contract/review';
import { FLAG_REASON_MAX } from '@pm/core/contract/review';
import { useQueryClient } from '@tanstack/react-query';
import { Flag } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { getAddress } from 'viem';
import { useSignTypedData } from 'wagmi';
import { useAppConfig } from '#api/get-app-config.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';
import { PaymentDialog } from '#wallet/components/payment-dialog.tsx';
import { walletErrorMessage } from '#wallet/utils/wallet-error-message.ts';
import { postFlag, type SignedFlag, signFlag } from '../../api/flag-market.ts';
import { MARKETS_QUERY_KEY } from '../../api/get-markets.ts';
import { flagDepositCall } from '../../utils/flag-deposit.ts';
import { recordErrorMessage } from '../../utils/record-error.ts';

/**
 * A bettor flags the proposed verdict with a short reason, signed by their wallet (EIP-712, issue
 * 11), and a bond (issue 22) that is a dispute deposit into the escrow (decision 026, "Flag bonds"):
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
  const queryClient = useQueryClient();
  const { data: config } = useAppConfig();
  const signTypedData = useSignTypedData();
  const [reason, setReason] = useState('');
  const [signing, setSigning] = useState(false);
  const [signed, setSigned] = useState<SignedFlag | null>(null);
  const bond = format.bnb(bondWei, { decimals: 4, trim: true });
  // No escrow configured: the server takes no flag (ESCROW_NOT_CONFIGURED), so none is offered.
  const deposit = config.escrow ? flagDepositCall(config.escrow.address, escrowMarket, bondWei) : null;

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
      setSigned(await signFlag(signer, { marketId, reason, nowS: nowMs / 1000 }));
    } catch (error) {
      toast.error(walletErrorMessage(error) ?? t('review.flag.failed'));
    } finally {
      setSigning(false);
    }
  };

  const body = (txHash: string): FlagMarketBody => {
    if (!signed) throw new Error('no signed flag');
    return { ...signed, txHash, amountWei: bondWei };
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
        <Button type="submit" variant="danger" disabled={signing || signed !== null}>
          {t('review.flag.submit')}
        </Button>
        {signing && (
          <p role="status" className="text-xs text-brand">
            {t('review.flag.signing')}
          </p>
        )}
      </form>
      {signed && deposit && (
        <PaymentDialog
          open
          onOpenChange={(next) => !next && setSigned(null)}
          amountWei={deposit.value}
          escrowAddress={deposit.to}
          data={deposit.data}
          recordingMessage={t('review.flag.recording')}
          // A dispute nobody posts a flag for is refunded by the server's reconciliation after its grace.
          onPaid={() => {}}
          record={(txHash) => postFlag(marketId, body(txHash))}
          onRecorded={(outcome) => {
            toast.success(outcome === 'recorded' ? t('review.flag.sent') : t('review.flag.pending'));
            setSigned(null);
            setReason('');
            void queryClient.invalidateQueries({ queryKey: MARKETS_QUERY_KEY });
          }}
          recordErrorMessage={(error) => recordErrorMessage(t, error, t('review.flag.failed'))}
        />
      )}
    </>
  );
}
