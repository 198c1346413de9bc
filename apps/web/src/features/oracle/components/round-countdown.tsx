import type { Round } from '@pm/core/contract/oracle';
import { countdownLabel } from '@pm/core/rounds';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { formatCountdown } from '#lib/use-format.ts';
import { roundTimes } from '../utils/round-view.ts';

/**
 * docs/product.md §4 countdown, from the server's clock: 'betting closes in' (live), 'result in' (locked),
 * 'starts in' (upcoming), 'ended', and 'processing' once the instant passed but the server has not
 * moved the round on yet.
 */
export function RoundCountdown({
  round,
  nowS,
  className,
}: {
  round: Round;
  nowS: number;
  className?: string;
}) {
  const { t } = useTranslation();
  const { key, secondsLeft } = countdownLabel({ status: round.status, ...roundTimes(round) }, nowS);
  const label = t(`oracle.countdown.${key}`);
  const running = key !== 'ended' && key !== 'processing';
  return (
    <p
      role="timer"
      className={cx('flex items-baseline gap-2 text-sm', className)}
      data-countdown={key}
      aria-label={running ? `${label} ${formatCountdown(secondsLeft)}` : label}
    >
      <span className="text-muted">{label}</span>
      {running && (
        <time className="font-mono text-base font-semibold text-fg tabular-nums">
          {formatCountdown(secondsLeft)}
        </time>
      )}
    </p>
  );
}
