import type { CreateMarketBody, JoinMarketBody } from '@pm/core/contract/markets';
import { useQueryClient } from '@tanstack/react-query';
import { getAddress, type Hex } from 'viem';
import { useAppConfig } from '../../../api/get-app-config.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { toast } from '../../../ui/toast.ts';
import { PaymentDialog } from '../../../wallet/components/payment-dialog.tsx';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';
import { type PendingRecord, recordAndForget, savePendingRecord } from '../api/record-payment.ts';
import { recordErrorMessage } from '../utils/record-error.ts';

/** A create or join request before its payment: everything but the transaction's hash. */
export type UnpaidRecord =
  | { kind: 'create'; body: Omit<CreateMarketBody, 'txHash'> }
  | { kind: 'join'; marketId: number; body: Omit<JoinMarketBody, 'txHash'> };

function paid(record: UnpaidRecord, txHash: Hex): PendingRecord {
  return record.kind === 'create'
    ? { kind: 'create', body: { ...record.body, txHash } }
    : { kind: 'join', marketId: record.marketId, body: { ...record.body, txHash } };
}

const TEXTS = {
  create: {
    recording: 'payment.creating',
    success: 'markets.create.success',
    failed: 'markets.create.failed',
  },
  join: { recording: 'payment.joining', success: 'markets.join.success', failed: 'markets.join.failed' },
} as const;

/**
 * The payment of a market create or join (docs/product.md §4): the wallet pays the vault with the
 * request's intent, the request is kept in this browser from the moment it is paid until the server
 * has it (issue 3), then recorded, with the spec's texts for each game step.
 */
export function MarketPaymentDialog({
  record,
  amountWei,
  data,
  onCancel,
  onRecorded,
}: {
  record: UnpaidRecord;
  amountWei: bigint;
  data: Hex;
  onCancel: () => void;
  onRecorded: () => void;
}) {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  const queryClient = useQueryClient();
  const texts = TEXTS[record.kind];
  return (
    <PaymentDialog
      open
      onOpenChange={(next) => !next && onCancel()}
      amountWei={amountWei}
      vaultAddress={getAddress(config.vaultAddress)}
      data={data}
      recordingMessage={t(texts.recording)}
      onPaid={(txHash) => savePendingRecord(paid(record, txHash))}
      record={(txHash) => recordAndForget(paid(record, txHash))}
      onRecorded={(outcome) => {
        toast.success(outcome === 'recorded' ? t(texts.success) : t('payment.pending'));
        onRecorded();
        void queryClient.invalidateQueries({ queryKey: MARKETS_QUERY_KEY });
      }}
      recordErrorMessage={(error) => recordErrorMessage(t, error, t(texts.failed))}
    />
  );
}
