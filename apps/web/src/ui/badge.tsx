import type { ComponentProps } from 'react';
import { cx } from '#lib/cx.ts';

const TONES = {
  brand: 'border-brand/40 bg-brand/10 text-brand',
  yes: 'border-yes/40 bg-yes/10 text-yes',
  no: 'border-no/40 bg-no/10 text-no',
  neutral: 'border-line-strong bg-surface-2 text-muted',
} as const;

export type BadgeProps = ComponentProps<'span'> & { tone?: keyof typeof TONES };

export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}

/** A small dot that pulses unless the user prefers reduced motion. */
export function LiveDot({ className }: { className?: string }) {
  return (
    <span aria-hidden="true" className={cx('relative flex size-2', className)}>
      <span className="absolute inline-flex size-full rounded-full bg-current opacity-60 motion-safe:animate-ping" />
      <span className="relative inline-flex size-2 rounded-full bg-current" />
    </span>
  );
}
