import type { DepositCall } from '@pm/escrow/deposit-call';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, useState } from 'react';
import type { Hex } from 'viem';
import { useTranslation } from '#i18n/use-translation.ts';
import { toast } from '#ui/toast.ts';
import type { PaymentDialog, RecordOutcome } from '../components/payment-dialog.tsx';
import { recordErrorMessage } from '../utils/record-error-message.ts';

/** A request that is paid for before it is posted: the request, and the escrow deposit that pays it. */
export type PaidRequest<Request> = { request: Request; deposit: DepositCall };

type Options<Request> = {
  /** The payment step's third message: 'Payment confirmed! Creating your market...' or 'Joining bet...'. */
  recordingMessage: string;
  /** Called as soon as the wallet submits, to keep the request and its hash until it is recorded. */
  onPaid?: (request: Request, txHash: Hex) => void;
  /** Posts the request with the deposit's hash. */
  record: (request: Request, txHash: Hex) => Promise<RecordOutcome>;
  /** The toasts: recorded, left to the server to record once the payment is final, and failed to record. */
  messages: { recorded: string; pending: string; failed: string };
  /** What the recorded request changes, refetched once it is recorded. */
  invalidates: QueryKey;
  /** After the toast: what the form does next (close, clear its fields). */
  onRecorded: () => void;
};

/**
 * The wiring of the payment dialog that a paid form shares (docs/product.md §4): `pay` opens it for a
 * request and its deposit; once the chain has the payment the request is posted with its hash, a
 * success or "recorded once final" toast follows, the form goes on (`onRecorded`) and the changed
 * queries are refetched; a failed post says why (a final refusal closes the dialog, anything else
 * may be retried with the same hash). `dialog` is the open dialog's props, null while nothing is paid.
 */
export function usePaymentDialog<Request>(options: Options<Request>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [paying, setPaying] = useState<PaidRequest<Request> | null>(null);
  const { recordingMessage, onPaid, record, messages, invalidates, onRecorded } = options;

  const dialog: ComponentProps<typeof PaymentDialog> | null = paying && {
    open: true,
    onOpenChange: (open) => !open && setPaying(null),
    amountWei: paying.deposit.value,
    escrowAddress: paying.deposit.to,
    data: paying.deposit.data,
    recordingMessage,
    onPaid: (txHash) => onPaid?.(paying.request, txHash),
    record: (txHash) => record(paying.request, txHash),
    onRecorded: (outcome) => {
      toast.success(outcome === 'recorded' ? messages.recorded : messages.pending);
      setPaying(null);
      onRecorded();
      void queryClient.invalidateQueries({ queryKey: invalidates });
    },
    recordErrorMessage: (error) => recordErrorMessage(t, error, messages.failed),
  };

  return { pay: setPaying, paying: paying?.request ?? null, dialog };
}
