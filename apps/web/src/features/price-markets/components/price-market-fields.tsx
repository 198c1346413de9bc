import { type MarketDuration, PRICE_SYMBOLS } from '@pm/core/constants';
import { marketDeadline } from '@pm/core/market-rules';
import { parseUsdPrice } from '@pm/core/price';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { checkTargetPrice, formatGapBps, type PriceTerms, targetGapBps } from '#lib/price-terms.ts';
import { useFormat } from '#lib/use-format.ts';
import { marketTitle } from '#lib/use-market-title.ts';
import { useNowMs } from '#lib/use-now-ms.ts';
import { ChoiceGroup } from '#ui/choice-group.tsx';
import { Field } from '#ui/field.tsx';
import { useCoinPrice } from '../api/get-coin-price.ts';
import { CoinIcon } from './coin-icon.tsx';

/**
 * The Price Oracle part of 'Create Prediction Market' (decision 020): coin, above/below, target in USD,
 * the coin's live price with the target's distance from it, and the title the server will write.
 */
export function PriceMarketFields({
  id,
  terms,
  duration,
  onChange,
}: {
  id: string;
  terms: PriceTerms;
  duration: MarketDuration;
  onChange: (terms: PriceTerms) => void;
}) {
  useNamespace('price');
  const i18n = useTranslation();
  const { t } = i18n;
  const format = useFormat();
  const nowMs = useNowMs();
  const price = useCoinPrice(terms.symbol);
  const check = checkTargetPrice(terms.target);
  const invalid = !check.ok && check.reason === 'invalid';
  const currentScaled = price.data ? parseUsdPrice(price.data.usd) : null;
  const gap = check.ok && currentScaled !== null ? targetGapBps(currentScaled, check.scaled) : null;
  // The deadline the server will set: its clock now plus the duration (docs/product.md §4); the
  // title said as every page will say it once the market exists.
  const deadline = marketDeadline(new Date(nowMs), duration).toISOString();
  const preview = check.ok
    ? marketTitle(
        '',
        {
          targetSymbol: terms.symbol,
          comparisonType: terms.comparison,
          targetPrice: check.target,
          deadline,
        },
        i18n,
      )
    : t(`market.priceTitle.${terms.comparison}`, {
        symbol: terms.symbol,
        target: '…',
        deadline: format.dateTime(deadline),
      });

  return (
    <div className="flex flex-col gap-4" data-testid="price-market-fields">
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium">{t('price.create.coin')}</legend>
        <div className="grid grid-cols-4 gap-2">
          {PRICE_SYMBOLS.map((symbol) => (
            <label
              key={symbol}
              className={cx(
                'flex min-h-10 cursor-pointer items-center justify-center gap-1.5 rounded-lg border px-1 py-2 text-xs font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand sm:text-sm',
                terms.symbol === symbol ? 'border-brand bg-brand/10' : 'border-line bg-surface-2',
              )}
            >
              <input
                type="radio"
                className="sr-only"
                name={`${id}-coin`}
                value={symbol}
                checked={terms.symbol === symbol}
                onChange={() => onChange({ ...terms, symbol })}
              />
              <CoinIcon symbol={symbol} className="size-5" />
              {symbol}
            </label>
          ))}
        </div>
      </fieldset>
      <p
        className="flex flex-wrap items-baseline gap-x-2 text-sm"
        aria-live="polite"
        data-testid="coin-price"
      >
        <span className="text-muted">{t('price.create.current', { symbol: terms.symbol })}:</span>
        <span className="font-semibold tabular-nums">
          {price.data
            ? format.price(price.data.usd)
            : price.isError
              ? t('price.create.unavailable')
              : t('price.create.loading')}
        </span>
      </p>
      <ChoiceGroup
        legend={t('price.create.comparison')}
        name={`${id}-comparison`}
        value={terms.comparison}
        onChange={(comparison) => onChange({ ...terms, comparison })}
        options={[
          { value: 'above', label: t('price.create.above'), hint: t('price.create.aboveHint') },
          { value: 'below', label: t('price.create.below'), hint: t('price.create.belowHint') },
        ]}
      />
      <Field
        id={`${id}-target`}
        label={t('price.create.target')}
        hint={t('price.create.targetHint')}
        error={invalid && t('price.validation.targetInvalid')}
        describedBy={`${id}-target-gap`}
        after={
          <p id={`${id}-target-gap`} className="text-xs tabular-nums" data-testid="target-gap">
            {gap !== null &&
              t('price.create.gap', {
                gap: formatGapBps(gap, format.language),
              })}
          </p>
        }
      >
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={terms.target}
            onChange={(e) => onChange({ ...terms, target: e.target.value })}
          />
        )}
      </Field>
      <div className="flex flex-col gap-1 rounded-lg border border-line bg-surface-2 p-3">
        <p className="text-xs text-muted">{t('price.create.preview')}</p>
        <p className="text-sm font-semibold" data-testid="title-preview">
          {preview}
        </p>
        <p className="text-xs text-muted">{t('price.create.decides')}</p>
      </div>
    </div>
  );
}
