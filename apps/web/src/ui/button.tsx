import type { ComponentProps } from 'react';
import { cx } from '#lib/cx.ts';

const VARIANTS = {
  primary: 'bg-brand text-bg hover:bg-brand-hover',
  outline: 'border border-line-strong bg-surface text-fg hover:border-brand hover:text-brand',
  ghost: 'text-fg hover:bg-surface-2',
  danger: 'bg-danger text-white hover:bg-danger-hover',
} as const;

const SIZES = {
  sm: 'h-10 px-3 text-sm sm:h-9',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-10',
} as const;

type ButtonLook = {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  className?: string | undefined;
};

/** The button's look for another element, a link to another page say: `<Link className={buttonClassName()}>`. */
export function buttonClassName({ variant = 'primary', size = 'md', className }: ButtonLook = {}) {
  return cx(
    'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60',
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

export type ButtonProps = ComponentProps<'button'> & ButtonLook;

export function Button({ variant, size, className, ...props }: ButtonProps) {
  return <button type="button" className={buttonClassName({ variant, size, className })} {...props} />;
}
