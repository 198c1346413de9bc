import { Check, Copy, LoaderCircle } from 'lucide';
import { useState } from 'react';
import type { Hex } from 'viem';
import { useTranslation } from '#i18n/use-translation.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { Modal } from '#ui/modal.tsx';
import { toast } from '#ui/toast.ts';
import { useAccountKind } from '../api/get-account-kind.ts';
import { useSendPayment } from '../hooks/use-send-payment.ts';
import { useWallet } from '../hooks/use-wallet.ts';
import { paymentErrorMessage } from '../utils/payment-error-message.ts';

export type RecordOutcome = 'recorded' | 'pending';

type Step = 'ready' | 'wallet' | 'chain' | 'recording' | 'record-failed';

/**
 * docs/product.md §2/§4 "Send Payment to Vault": amount, the vault (the escrow contract) with copy, then the three progress
 * messages with a visible indicator. The payment is the escrow deposit in `data`. Once the chain has
 * it, `record(hash)` posts it; if that fails the dialog offers Retry with the same hash, so a paid
 * bet is never lost to a server hiccup.
 */
export function PaymentDialog({
  open,
  onOpenChange,
  amountWei,
  escrowAddress,
  data,
  recordingMessage,
  onPaid,
  record,
  onRecorded,
  recordErrorMessage,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  amountWei: bigint;
  escrowAddress: `0x${string}`;
  data: Hex;
  /** 'Payment confirmed! Creating your market...' or 'Joining bet...'. */
  recordingMessage: string;
  /** Called as soon as the wallet submits, to keep the hash until it is recorded. */
  onPaid: (hash: Hex) => void;
  record: (hash: Hex) => Promise<RecordOutcome>;
  onRecorded: (outcome: RecordOutcome) => void;
  /** The toast when recording fails; answers true when the dialog should close (nothing to retry). */
  recordErrorMessage: (error: unknown) => { message: string; close: boolean };
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const payment = useSendPayment();
  const { address } = useWallet();
  const isContractWallet = useAccountKind(address) === 'contract';
  const [step, setStep] = useState<Step>('ready');
  const [paidHash, setPaidHash] = useState<Hex | null>(null);
  const busy = step === 'wallet' || step === 'chain' || step === 'recording';

  const recordPaid = async (hash: Hex) => {
    setStep('recording');
    try {
      onRecorded(await record(hash));
      setStep('ready');
      setPaidHash(null);
    } catch (error) {
      const { message, close } = recordErrorMessage(error);
      toast.error(message);
      if (close) {
        setStep('ready');
        onOpenChange(false);
      } else {
        setStep('record-failed');
      }
    }
  };

  const send = async () => {
    setStep('wallet');
    let hash: Hex;
    try {
      const paid = payment.mutateAsync({ to: escrowAddress, value: amountWei, data });
      ({ hash } = await paid);
    } catch (error) {
      toast.error(paymentErrorMessage(t, error));
      setStep('ready');
      payment.reset();
      return;
    }
    setPaidHash(hash);
    onPaid(hash);
    payment.reset();
    await recordPaid(hash);
  };

  const stepDone = (index: number) => {
    const reached = { ready: -1, wallet: 0, chain: 1, recording: 2, 'record-failed': 2 }[step];
    const live = step === 'wallet' && payment.stage === 'waiting-for-confirmation' ? 1 : reached;
    return index < live ? 'done' : index === live ? 'active' : 'todo';
  };
  const messages = [t('payment.confirmInWallet'), t('payment.submitted'), recordingMessage];

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t('payment.title')}
      description={t('payment.vault')}
      descriptionHidden
      closeLabel={t('payment.close')}
      closeDisabled={busy}
      placement="sheet"
    >
      <dl className="mb-4 grid grid-cols-1 gap-3 text-sm">
        <div className="flex items-baseline justify-between gap-3">
          <dt className="text-muted">{t('payment.amount')}</dt>
          <dd className="text-xl font-bold tabular-nums">
            {format.bnb(amountWei, { decimals: 5, trim: true })}
          </dd>
        </div>
        <div>
          <dt className="mb-1 text-muted">{t('payment.vault')}</dt>
          <dd className="flex items-center gap-2 rounded-lg border border-line bg-surface-2 px-3 py-2">
            <code className="min-w-0 flex-1 truncate text-xs">{escrowAddress}</code>
            <Button
              variant="ghost"
              size="icon"
              className="-my-1"
              aria-label={t('markets.vault.copy')}
              onClick={() =>
                void navigator.clipboard
                  .writeText(escrowAddress)
                  .then(() => toast.success(t('markets.vault.copied')))
              }
            >
              <Icon node={Copy} aria-hidden="true" className="size-4" />
            </Button>
          </dd>
        </div>
      </dl>
      {step !== 'ready' && (
        <ol aria-label={t('payment.title')} className="mb-4 flex flex-col gap-2" aria-live="polite">
          {messages.map((message, index) => {
            const state = stepDone(index);
            return (
              <li
                key={message}
                className={`flex items-center gap-2 text-sm ${state === 'todo' ? 'text-muted' : ''}`}
              >
                {state === 'done' ? (
                  <Icon node={Check} aria-hidden="true" className="size-4 text-yes" />
                ) : state === 'active' && step !== 'record-failed' ? (
                  <Icon
                    node={LoaderCircle}
                    aria-hidden="true"
                    className="size-4 text-brand motion-safe:animate-spin"
                  />
                ) : (
                  <span aria-hidden="true" className="size-4 rounded-full border border-line-strong" />
                )}
                <span role={state === 'active' ? 'status' : undefined}>{message}</span>
              </li>
            );
          })}
        </ol>
      )}
      {step === 'ready' && (
        <p className="mb-4 text-xs text-muted">
          {t(isContractWallet ? 'payment.contractAccount' : 'payment.directOnly')}
        </p>
      )}
      {step === 'record-failed' && paidHash ? (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-muted">{t('payment.retryHint')}</p>
          <Button onClick={() => void recordPaid(paidHash)}>{t('payment.retry')}</Button>
        </div>
      ) : (
        <Button className="w-full" size="lg" disabled={busy} onClick={() => void send()}>
          {busy && (
            <Icon node={LoaderCircle} aria-hidden="true" className="size-5 motion-safe:animate-spin" />
          )}
          {t('payment.send')}
        </Button>
      )}
    </Modal>
  );
}
