import type { ComponentProps } from 'react';
import { cx } from '#lib/cx.ts';

/** docs/architecture.md: cards with a thin border and generous spacing. */
export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cx('rounded-xl border border-line bg-surface', className)} {...props} />;
}
