import { cx } from '#lib/cx.ts';

export function Skeleton({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cx('block rounded-md bg-surface-2 motion-safe:animate-pulse', className)}
    />
  );
}
