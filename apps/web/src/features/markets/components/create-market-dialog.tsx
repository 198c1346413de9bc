import {
  MARKET_BET_STEP,
  MARKET_CATEGORIES,
  MAX_DESCRIPTION_LENGTH,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_TITLE_LENGTH,
  type MarketCategory,
  MIN_MARKET_BET_WEI,
} from '@pm/core/constants';
import type { CreateCustomMarketBody, CreatePriceMarketBody } from '@pm/core/contract/markets';
import { marketContentHash } from '@pm/core/intent';
import { priceMarketContentHash } from '@pm/core/price-market';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { getAddress } from 'viem';
import { useAppConfig } from '#api/get-app-config.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { bnbInputText, parseBnbOrNull } from '#lib/bnb-input.ts';
import { Button } from '#ui/button.tsx';
import { Modal } from '#ui/modal.tsx';
import { toast } from '#ui/toast.ts';
import { PaymentDialog } from '#wallet/components/payment-dialog.tsx';
import { WalletButton } from '#wallet/components/wallet-button.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { MARKETS_QUERY_KEY } from '../api/get-markets.ts';
import { recordAndForget, savePendingRecord } from '../api/record-payment.ts';
import { useNowMs } from '../hooks/use-now-ms.ts';
import { marketCreateDepositCall, newMarketEscrow } from '../utils/market-deposit.ts';
import { checkTargetPrice } from '../utils/price-terms.ts';
import { recordErrorMessage } from '../utils/record-error.ts';
import { ChoiceGroup } from './choice-group.tsx';
import { AnalyzeMarket } from './evidence/analyze-market.tsx';
import { PriceMarketFields, type PriceTerms } from './price/price-market-fields.tsx';

const MIN_MARKET_BET_TEXT = bnbInputText(MIN_MARKET_BET_WEI);

type BetType = 'custom_bet' | 'price_prediction';
type UnpaidBody = Omit<CreateCustomMarketBody, 'txHash'> | Omit<CreatePriceMarketBody, 'txHash'>;
const field = 'min-h-10 w-full rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm';

/**
 * docs/product.md §2 'Create Prediction Market', then the payment: a deposit into the escrow (decision
 * 026) under a fresh escrow id, closing the server's now + the duration, committing to the content hash.
 */
export function CreateMarketDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  useNamespace('marketActions');
  const { t } = useTranslation();
  const id = useId();
  const wallet = useWallet();
  const { data: config } = useAppConfig();
  const nowMs = useNowMs();
  const queryClient = useQueryClient();
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
  const [duration, setDuration] = useState<'hourly' | 'daily'>('hourly');
  const [prediction, setPrediction] = useState<'YES' | 'NO' | null>(null);
  const [amount, setAmount] = useState(MIN_MARKET_BET_TEXT);
  const [paying, setPaying] = useState<{ body: UnpaidBody; amountWei: bigint } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // docs/product.md §5, in the spec's order.
    if (!wallet.isConnected || !wallet.address)
      return void toast.error(t('marketActions.validation.connect'));
    if (!config.escrow) return void toast.error(t('marketActions.validation.unavailable'));
    if (isPrice) return submitPrice(wallet.address);
    if (!category) return void toast.error(t('marketActions.validation.category'));
    if (!description.trim()) return void toast.error(t('marketActions.validation.description'));
    if (!prediction) return void toast.error(t('marketActions.validation.prediction'));
    const amountWei = parseBnbOrNull(amount);
    if (amountWei === null || amountWei < MIN_MARKET_BET_WEI)
      return void toast.error(t('marketActions.validation.minimum'));
    setPaying({
      amountWei,
      body: {
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
    });
  };

  // Issue 19: a price market's terms replace the text; the first bet is the same as a custom one's.
  const submitPrice = (creatorAddress: `0x${string}`) => {
    const target = checkTargetPrice(priceTerms.target);
    if (!target.ok)
      return void toast.error(
        t(target.reason === 'empty' ? 'price.validation.targetEmpty' : 'price.validation.targetInvalid'),
      );
    if (!prediction) return void toast.error(t('marketActions.validation.prediction'));
    const amountWei = parseBnbOrNull(amount);
    if (amountWei === null || amountWei < MIN_MARKET_BET_WEI)
      return void toast.error(t('marketActions.validation.minimum'));
    setPaying({
      amountWei,
      body: {
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
    });
  };

  const body = paying?.body;
  const deposit =
    body && paying && config.escrow
      ? marketCreateDepositCall(
          config.escrow.address,
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
          paying.amountWei,
        )
      : null;

  return (
    <>
      <Modal
        open={open && !paying}
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
          {isPrice && (
            <PriceMarketFields id={id} terms={priceTerms} duration={duration} onChange={setPriceTerms} />
          )}
          <div hidden={isPrice} className="flex flex-col gap-1">
            <label htmlFor={`${id}-category`} className="text-sm font-medium">
              {t('marketActions.create.category')}
            </label>
            <select
              id={`${id}-category`}
              className={field}
              value={category}
              onChange={(e) => setCategory(toCategory(e.target.value))}
            >
              <option value="">{t('marketActions.create.selectCategory')}</option>
              {MARKET_CATEGORIES.map((value) => (
                <option key={value} value={value}>
                  {t(`markets.categories.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <div hidden={isPrice} className="flex flex-col gap-1">
            <label htmlFor={`${id}-title`} className="text-sm font-medium">
              {t('marketActions.create.betTitle')}
            </label>
            <input
              id={`${id}-title`}
              maxLength={MAX_TITLE_LENGTH}
              className={field}
              placeholder={t('marketActions.create.titlePlaceholder')}
              value={title}
              onChange={(e) => setTitle(e.target.value)}
            />
          </div>
          <div hidden={isPrice} className="flex flex-col gap-1">
            <label htmlFor={`${id}-description`} className="text-sm font-medium">
              {t('marketActions.create.description')}
            </label>
            <textarea
              id={`${id}-description`}
              rows={3}
              maxLength={MAX_DESCRIPTION_LENGTH}
              className={field}
              placeholder={t('marketActions.create.descriptionPlaceholder')}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <div hidden={isPrice} className="flex flex-col gap-1">
            <label htmlFor={`${id}-instructions`} className="text-sm font-medium">
              {t('marketActions.create.instructions')}
            </label>
            <textarea
              id={`${id}-instructions`}
              rows={2}
              maxLength={MAX_INSTRUCTIONS_LENGTH}
              className={field}
              placeholder={t('marketActions.create.instructionsPlaceholder')}
              aria-describedby={`${id}-instructions-hint`}
              value={instructions}
              onChange={(e) => setInstructions(e.target.value)}
            />
            <p id={`${id}-instructions-hint`} className="text-xs text-muted">
              {t('marketActions.create.instructionsHint')}
            </p>
            <AnalyzeMarket
              description={description}
              title={title}
              instructions={instructions}
              duration={duration}
              onUseInstructions={setInstructions}
            />
          </div>
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
            <label htmlFor={`${id}-amount`} className="text-sm font-medium">
              {t('marketActions.create.amount')}
            </label>
            <input
              id={`${id}-amount`}
              type="number"
              inputMode="decimal"
              min={MIN_MARKET_BET_TEXT}
              step={MARKET_BET_STEP}
              className={field}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
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
      {paying && body && deposit && (
        <PaymentDialog
          open
          onOpenChange={(next) => !next && setPaying(null)}
          amountWei={paying.amountWei}
          escrowAddress={getAddress(deposit.to)}
          data={deposit.data}
          recordingMessage={t('payment.creating')}
          onPaid={(txHash) => savePendingRecord({ kind: 'create', body: { ...body, txHash } })}
          record={(txHash) => recordAndForget({ kind: 'create', body: { ...body, txHash } })}
          onRecorded={(outcome) => {
            toast.success(outcome === 'recorded' ? t('marketActions.create.success') : t('payment.pending'));
            setPaying(null);
            onOpenChange(false);
            void queryClient.invalidateQueries({ queryKey: MARKETS_QUERY_KEY });
          }}
          recordErrorMessage={(error) => recordErrorMessage(t, error, t('marketActions.create.failed'))}
        />
      )}
    </>
  );
}

function toCategory(value: string): MarketCategory | '' {
  return MARKET_CATEGORIES.find((category) => category === value) ?? '';
}
