import { MARKET_BET_STEP, MIN_MARKET_BET_WEI } from '@pm/core/constants';
import type { JoinMarketBody, Market } from '@pm/core/contract/markets';
import { canJoinMarket, estimateMarketWinWei } from '@pm/core/market-rules';
import { type FormEvent, Suspense, useId, useState } from 'react';
import { useAppConfig } from '#api/get-app-config.ts';
import { MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { recordAndForget, savePendingRecord } from '#api/record-payment.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { bnbInputText, parseBnbOrNull } from '#lib/bnb-input.ts';
import { useFormat } from '#lib/use-format.ts';
import { priceTitleTerms, useMarketTitle } from '#lib/use-market-title.ts';
import { useNowMs } from '#lib/use-now-ms.ts';
import { Button } from '#ui/button.tsx';
import { ChoiceGroup } from '#ui/choice-group.tsx';
import { Field } from '#ui/field.tsx';
import { Modal } from '#ui/modal.tsx';
import { toast } from '#ui/toast.ts';
import { PaymentDialog } from '#wallet/components/payment-dialog.tsx';
import { usePaymentDialog } from '#wallet/hooks/use-payment-dialog.ts';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { marketBetDepositCall } from '../utils/market-bet-deposit.ts';
import type { BoardParts } from './market-parts.ts';

const MIN_MARKET_BET_TEXT = bnbInputText(MIN_MARKET_BET_WEI);

/**
 * docs/product.md §2 'Join Prediction': YES/NO, amount, then the payment: a deposit into the escrow under
 * the market's escrow id and close, with the side (decision 026).
 */
export function JoinMarketDialog({
  market,
  onClose,
  PriceMarketDescription,
}: {
  market: Market | null;
  onClose: () => void;
} & Pick<BoardParts, 'PriceMarketDescription'>) {
  useNamespace('marketActions');
  const { t } = useTranslation();
  const title = useMarketTitle(market?.title ?? '', market ? priceTitleTerms(market) : null);
  const format = useFormat();
  const id = useId();
  const wallet = useWallet();
  const nowMs = useNowMs();
  const { data: config } = useAppConfig();
  const [prediction, setPrediction] = useState<'YES' | 'NO' | null>(null);
  const [amount, setAmount] = useState(MIN_MARKET_BET_TEXT);
  const amountWei = parseBnbOrNull(amount);
  const payment = usePaymentDialog<{ marketId: number; body: Omit<JoinMarketBody, 'txHash'> }>({
    recordingMessage: t('payment.joining'),
    onPaid: ({ marketId, body }, txHash) =>
      savePendingRecord({ kind: 'join', marketId, body: { ...body, txHash } }),
    record: ({ marketId, body }, txHash) =>
      recordAndForget({ kind: 'join', marketId, body: { ...body, txHash } }),
    messages: {
      recorded: t('marketActions.join.success'),
      pending: t('payment.pending'),
      failed: t('marketActions.join.failed'),
    },
    invalidates: MARKETS_QUERY_KEY,
    onRecorded: onClose,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!wallet.isConnected || !wallet.address)
      return void toast.error(t('marketActions.validation.connect'));
    if (!market) return void toast.error(t('marketActions.validation.notFound'));
    if (!canJoinMarket({ status: market.status, deadline: new Date(market.deadline) }, new Date(nowMs))) {
      toast.error(t('marketActions.validation.closed'));
      return onClose();
    }
    if (!prediction) return void toast.error(t('marketActions.validation.prediction'));
    if (amountWei === null || amountWei < MIN_MARKET_BET_WEI)
      return void toast.error(t('marketActions.validation.minimum'));
    if (!config.escrow) return void toast.error(t('marketActions.validation.unavailable'));
    // A market made before the escrow takes no new bet.
    const deposit = marketBetDepositCall(config.escrow.address, market, prediction, amountWei);
    if (!deposit) {
      toast.error(t('marketActions.validation.closed'));
      return onClose();
    }
    payment.pay({
      request: {
        marketId: market.id,
        body: { userAddress: wallet.address, prediction, amountWei: amountWei.toString() },
      },
      deposit,
    });
  };

  const estimate =
    market && prediction && amountWei !== null && amountWei > 0n
      ? estimateMarketWinWei({
          stakeWei: amountWei,
          side: prediction,
          totalYesWei: BigInt(market.totalYesWei),
          totalNoWei: BigInt(market.totalNoWei),
          feeBps: config.marketFeeBps,
        })
      : null;

  return (
    <>
      <Modal
        open={Boolean(market) && !payment.paying}
        onOpenChange={(open) => !open && onClose()}
        title={t('marketActions.join.title')}
        description={market ? title : undefined}
        closeLabel={t('marketActions.create.cancel')}
        placement="sheet"
      >
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          {market && (
            // What decides the market, shown before anyone pays.
            <section
              aria-labelledby={`${id}-criteria`}
              className="flex flex-col gap-2 rounded-lg border border-brand/40 bg-surface-2 p-3 text-sm"
            >
              <h3 id={`${id}-criteria`} className="font-semibold">
                {t('marketActions.join.criteriaTitle')}
              </h3>
              <p className="text-xs text-muted">{t('marketActions.join.criteriaHint')}</p>
              <dl className="flex flex-col gap-1">
                <dt className="text-xs font-medium text-muted">{t('markets.detail.descriptionTitle')}</dt>
                <dd className="whitespace-pre-wrap break-words">
                  {market.betType === 'price_prediction' ? (
                    <Suspense fallback={null}>
                      <PriceMarketDescription market={market} />
                    </Suspense>
                  ) : (
                    market.description
                  )}
                </dd>
                <dt className="text-xs font-medium text-muted">{t('markets.detail.criteriaTitle')}</dt>
                <dd className="whitespace-pre-wrap break-words">
                  {market.resolutionInstructions?.trim()
                    ? market.resolutionInstructions
                    : t('markets.detail.criteriaNone')}
                </dd>
              </dl>
            </section>
          )}
          <ChoiceGroup
            legend={t('marketActions.join.prediction')}
            name={`${id}-prediction`}
            value={prediction}
            onChange={setPrediction}
            options={[
              { value: 'YES', label: 'YES', tone: 'yes' },
              { value: 'NO', label: 'NO', tone: 'no' },
            ]}
          />
          <Field
            id={`${id}-amount`}
            label={t('marketActions.join.amount')}
            hint={
              estimate !== null &&
              prediction && (
                <span className="tabular-nums">
                  {t('marketActions.join.estimate', {
                    side: prediction,
                    amount: format.bnb(estimate, { symbol: null }),
                  })}
                </span>
              )
            }
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="decimal"
                min={MIN_MARKET_BET_TEXT}
                step={MARKET_BET_STEP}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" size="lg">
            {t('marketActions.join.submit')}
          </Button>
        </form>
      </Modal>
      {payment.dialog && <PaymentDialog {...payment.dialog} />}
    </>
  );
}
