import {
  MARKET_BET_STEP,
  MARKET_CATEGORIES,
  MAX_DESCRIPTION_LENGTH,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_TITLE_LENGTH,
  type MarketCategory,
  type MarketDuration,
  MIN_MARKET_BET_WEI,
} from '@pm/core/constants';
import type { CreateCustomMarketBody, CreatePriceMarketBody } from '@pm/core/contract/markets';
import { marketContentHash } from '@pm/core/intent';
import { priceMarketContentHash } from '@pm/core/price-market';
import { type ComponentType, type FormEvent, useId, useState } from 'react';
import { useAppConfig } from '#api/get-app-config.ts';
import { MARKETS_QUERY_KEY } from '#api/market-query-keys.ts';
import { recordAndForget, savePendingRecord } from '#api/record-payment.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { bnbInputText, parseBnbOrNull } from '#lib/bnb-input.ts';
import { checkTargetPrice, type PriceTerms } from '#lib/price-terms.ts';
import { useNowMs } from '#lib/use-now-ms.ts';
import { Button } from '#ui/button.tsx';
import { ChoiceGroup } from '#ui/choice-group.tsx';
import { Field } from '#ui/field.tsx';
import { Modal } from '#ui/modal.tsx';
import { toast } from '#ui/toast.ts';
import { PaymentDialog } from '#wallet/components/payment-dialog.tsx';
import { WalletButton } from '#wallet/components/wallet-button.tsx';
import { usePaymentDialog } from '#wallet/hooks/use-payment-dialog.ts';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { marketCreateDepositCall, newMarketEscrow } from '../utils/market-create-deposit.ts';

const MIN_MARKET_BET_TEXT = bnbInputText(MIN_MARKET_BET_WEI);

type BetType = 'custom_bet' | 'price_prediction';
type UnpaidBody = Omit<CreateCustomMarketBody, 'txHash'> | Omit<CreatePriceMarketBody, 'txHash'>;

/**
 * What the dialog shows of other features, handed in by the route that composes it (features do not
 * import one another, docs/architecture.md "The web app"): a price market's fields, and the judge's
 * analysis of a custom market's question.
 */
export type CreateMarketParts = {
  PriceFields: ComponentType<{
    id: string;
    terms: PriceTerms;
    duration: MarketDuration;
    onChange: (terms: PriceTerms) => void;
  }>;
  Analyze: ComponentType<{
    description: string;
    title: string;
    instructions: string;
    duration: MarketDuration;
    onUseInstructions: (instructions: string) => void;
  }>;
};

/**
 * docs/product.md §2 'Create Prediction Market', then the payment: a deposit into the escrow (decision
 * 026) under a fresh escrow id, closing the server's now + the duration, committing to the content hash.
 */
export function CreateMarketDialog({
  open,
  onOpenChange,
  parts: { PriceFields, Analyze },
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  parts: CreateMarketParts;
}) {
  useNamespace('marketActions');
  const { t } = useTranslation();
  const id = useId();
  const wallet = useWallet();
  const { data: config } = useAppConfig();
  const nowMs = useNowMs();
  const [betType, setBetType] = useState<BetType>('custom_bet');
  const [priceTerms, setPriceTerms] = useState<PriceTerms>({
    symbol: 'BTC',
    comparison: 'above',
    target: '',
  });
  const isPrice = betType === 'price_prediction';
  const [category, setCategory] = useState<MarketCategory | ''>('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [instructions, setInstructions] = useState('');
  const [duration, setDuration] = useState<MarketDuration>('hourly');
  const [prediction, setPrediction] = useState<'YES' | 'NO' | null>(null);
  const [amount, setAmount] = useState(MIN_MARKET_BET_TEXT);
  const payment = usePaymentDialog<UnpaidBody>({
    recordingMessage: t('payment.creating'),
    onPaid: (body, txHash) => savePendingRecord({ kind: 'create', body: { ...body, txHash } }),
    record: (body, txHash) => recordAndForget({ kind: 'create', body: { ...body, txHash } }),
    messages: {
      recorded: t('marketActions.create.success'),
      pending: t('payment.pending'),
      failed: t('marketActions.create.failed'),
    },
    invalidates: MARKETS_QUERY_KEY,
    onRecorded: () => onOpenChange(false),
  });

  /** The payment step for the creation: a deposit committing to exactly the strings posted. */
  const pay = (escrow: string, body: UnpaidBody, amountWei: bigint) =>
    payment.pay({
      request: body,
      deposit: marketCreateDepositCall(
        escrow,
        {
          escrowId: body.escrowId,
          closesAt: body.closesAt,
          // Exactly the strings posted: the server checks the deposit against this hash.
          contentHash:
            body.betType === 'price_prediction'
              ? priceMarketContentHash({
                  targetSymbol: body.targetSymbol,
                  comparisonType: body.comparisonType,
                  targetPrice: body.targetPrice,
                  duration: body.duration,
                })
              : marketContentHash({
                  category: body.category,
                  duration: body.duration,
                  title: body.title ?? null,
                  description: body.description,
                  resolutionInstructions: body.resolutionInstructions ?? null,
                }),
          prediction: body.prediction,
        },
        amountWei,
      ),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // docs/product.md §5, in the spec's order.
    if (!wallet.isConnected || !wallet.address)
      return void toast.error(t('marketActions.validation.connect'));
    if (!config.escrow) return void toast.error(t('marketActions.validation.unavailable'));
    if (isPrice) return submitPrice(config.escrow.address, wallet.address);
    if (!category) return void toast.error(t('marketActions.validation.category'));
    if (!description.trim()) return void toast.error(t('marketActions.validation.description'));
    if (!prediction) return void toast.error(t('marketActions.validation.prediction'));
    const amountWei = parseBnbOrNull(amount);
    if (amountWei === null || amountWei < MIN_MARKET_BET_WEI)
      return void toast.error(t('marketActions.validation.minimum'));
    pay(
      config.escrow.address,
      {
        creatorAddress: wallet.address,
        description,
        ...(title.trim() ? { title } : {}),
        ...(instructions.trim() ? { resolutionInstructions: instructions } : {}),
        category,
        duration,
        prediction,
        amountWei: amountWei.toString(),
        // The market's id on the escrow and its deadline, which the deposit names (decision 026).
        ...newMarketEscrow(duration, nowMs),
      },
      amountWei,
    );
  };

  // A price market's terms replace the text (decision 020); the first bet is the same as a custom one's.
  const submitPrice = (escrow: string, creatorAddress: `0x${string}`) => {
    const target = checkTargetPrice(priceTerms.target);
    if (!target.ok)
      return void toast.error(
        t(target.reason === 'empty' ? 'price.validation.targetEmpty' : 'price.validation.targetInvalid'),
      );
    if (!prediction) return void toast.error(t('marketActions.validation.prediction'));
    const amountWei = parseBnbOrNull(amount);
    if (amountWei === null || amountWei < MIN_MARKET_BET_WEI)
      return void toast.error(t('marketActions.validation.minimum'));
    pay(
      escrow,
      {
        betType: 'price_prediction',
        creatorAddress,
        targetSymbol: priceTerms.symbol,
        comparisonType: priceTerms.comparison,
        targetPrice: target.target,
        duration,
        prediction,
        amountWei: amountWei.toString(),
        ...newMarketEscrow(duration, nowMs),
      },
      amountWei,
    );
  };

  return (
    <>
      <Modal
        open={open && !payment.paying}
        onOpenChange={onOpenChange}
        title={t('marketActions.create.title')}
        description={t('marketActions.create.initialBetHint')}
        descriptionHidden
        closeLabel={t('marketActions.create.cancel')}
        placement="tall"
      >
        {!wallet.isConnected && (
          <div
            role="note"
            className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-brand/40 bg-brand/10 p-3 text-sm"
          >
            <span>{t('marketActions.create.walletRequired')}</span>
            <WalletButton />
          </div>
        )}
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <ChoiceGroup
            legend={t('marketActions.create.betType')}
            name={`${id}-type`}
            value={betType}
            onChange={setBetType}
            options={[
              {
                value: 'custom_bet',
                label: t('markets.create.custom'),
                hint: t('marketActions.create.customHint'),
              },
              {
                value: 'price_prediction',
                label: t('markets.create.priceOracle'),
                hint: t('marketActions.create.priceOracleHint'),
              },
            ]}
          />
          {isPrice && <PriceFields id={id} terms={priceTerms} duration={duration} onChange={setPriceTerms} />}
          <Field hidden={isPrice} id={`${id}-category`} label={t('marketActions.create.category')}>
            {(control) => (
              <select {...control} value={category} onChange={(e) => setCategory(toCategory(e.target.value))}>
                <option value="">{t('marketActions.create.selectCategory')}</option>
                {MARKET_CATEGORIES.map((value) => (
                  <option key={value} value={value}>
                    {t(`markets.categories.${value}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field hidden={isPrice} id={`${id}-title`} label={t('marketActions.create.betTitle')}>
            {(control) => (
              <input
                {...control}
                maxLength={MAX_TITLE_LENGTH}
                placeholder={t('marketActions.create.titlePlaceholder')}
                value={title}
                onChange={(e) => setTitle(e.target.value)}
              />
            )}
          </Field>
          <Field hidden={isPrice} id={`${id}-description`} label={t('marketActions.create.description')}>
            {(control) => (
              <textarea
                {...control}
                rows={3}
                maxLength={MAX_DESCRIPTION_LENGTH}
                placeholder={t('marketActions.create.descriptionPlaceholder')}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            )}
          </Field>
          <Field
            hidden={isPrice}
            id={`${id}-instructions`}
            label={t('marketActions.create.instructions')}
            hint={t('marketActions.create.instructionsHint')}
            after={
              <Analyze
                description={description}
                title={title}
                instructions={instructions}
                duration={duration}
                onUseInstructions={setInstructions}
              />
            }
          >
            {(control) => (
              <textarea
                {...control}
                rows={2}
                maxLength={MAX_INSTRUCTIONS_LENGTH}
                placeholder={t('marketActions.create.instructionsPlaceholder')}
                value={instructions}
                onChange={(e) => setInstructions(e.target.value)}
              />
            )}
          </Field>
          {/* docs/product.md §2: the options are fixed; shown read-only so the creator knows what is asked. */}
          <p hidden={isPrice} className="text-sm">
            <span className="font-medium">{t('marketActions.create.options')}:</span>{' '}
            <span className="font-semibold">{'YES / NO'}</span>
          </p>
          <ChoiceGroup
            legend={t('marketActions.create.duration')}
            name={`${id}-duration`}
            value={duration}
            onChange={setDuration}
            options={[
              {
                value: 'hourly',
                label: t('marketActions.create.hourly'),
                hint: t('marketActions.create.hourlyHint'),
              },
              {
                value: 'daily',
                label: t('marketActions.create.daily'),
                hint: t('marketActions.create.dailyHint'),
              },
            ]}
          />
          <div className="flex flex-col gap-3 rounded-lg border border-line p-3">
            <p className="text-sm font-medium">{t('marketActions.create.initialBet')}</p>
            <p className="text-xs text-muted">{t('marketActions.create.initialBetHint')}</p>
            <ChoiceGroup
              legend={t('marketActions.create.prediction')}
              name={`${id}-prediction`}
              value={prediction}
              onChange={setPrediction}
              options={[
                { value: 'YES', label: 'YES', tone: 'yes' },
                { value: 'NO', label: 'NO', tone: 'no' },
              ]}
            />
            <Field className="contents" id={`${id}-amount`} label={t('marketActions.create.amount')}>
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
          </div>
          <div className="flex gap-2">
            <Button type="button" variant="outline" className="flex-1" onClick={() => onOpenChange(false)}>
              {t('marketActions.create.cancel')}
            </Button>
            <Button type="submit" className="flex-1">
              {t('marketActions.create.submit')}
            </Button>
          </div>
        </form>
      </Modal>
      {payment.dialog && <PaymentDialog {...payment.dialog} />}
    </>
  );
}

function toCategory(value: string): MarketCategory | '' {
  return MARKET_CATEGORIES.find((category) => category === value) ?? '';
}
