import { PRICE_SYMBOLS, type PriceSymbol } from '@pm/core/constants';
import { cx } from '#lib/cx.ts';

/** Each coin's brand colour, for a monogram (a small icon without an icon package). */
const COIN_COLOURS: Record<PriceSymbol, string> = {
  BTC: '#f7931a',
  ETH: '#627eea',
  BNB: '#f0b90b',
  SOL: '#9945ff',
  XRP: '#23292f',
  ADA: '#0033ad',
  AVAX: '#e84142',
  DOGE: '#c2a633',
};

/** A coloured round monogram of a coin; decorative (the symbol is always written beside it). */
export function CoinIcon({ symbol, className }: { symbol: PriceSymbol; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'inline-flex size-6 shrink-0 items-center justify-center rounded-full text-[0.6rem] font-bold text-white ring-1 ring-white/20',
        className,
      )}
      style={{ backgroundColor: COIN_COLOURS[symbol] }}
    >
      {symbol.slice(0, 1)}
    </span>
  );
}

/** A market's coin if it is one of the eight, else null (an unknown symbol is drawn as text only). */
export function asPriceSymbol(symbol: string | null): PriceSymbol | null {
  return PRICE_SYMBOLS.find((known) => known === symbol) ?? null;
}
