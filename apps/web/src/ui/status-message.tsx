import type { ReactNode } from 'react';
import { cx } from '#lib/cx.ts';

/** An empty or error state inside a card: icon, message and an optional action. */
export function StatusMessage({
  icon,
  tone = 'neutral',
  action,
  children,
}: {
  icon?: ReactNode;
  tone?: 'neutral' | 'error';
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : undefined}
      className="flex flex-col items-center gap-3 px-6 py-12 text-center"
    >
      {icon && (
        <span
          aria-hidden="true"
          className={cx('[&>svg]:size-8', tone === 'error' ? 'text-no' : 'text-muted')}
        >
          {icon}
        </span>
      )}
      <p className={cx('text-base font-medium', tone === 'error' ? 'text-no' : 'text-fg')}>{children}</p>
      {action}
    </div>
  );
}
