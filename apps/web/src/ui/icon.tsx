import type { IconNode } from 'lucide';
import { createElement, type SVGProps } from 'react';
import { cx } from '#lib/cx.ts';

export type { IconNode } from 'lucide';

/**
 * A Lucide icon (docs/architecture.md) drawn from its data: `<Icon node={Check} />` with `Check` from 'lucide'.
 * One small component instead of lucide-react, whose per-icon runtime cost ~2 kB gzip on every
 * page (docs/decisions/006); each icon's data stays its own module, so a page ships only its own.
 * Same defaults as lucide-react: 24×24, stroke in the current colour, hidden from assistive
 * technology unless labelled.
 */
export function Icon({ node, className, ...props }: { node: IconNode } & SVGProps<SVGSVGElement>) {
  const labelled = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined;
  return createElement(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: 24,
      height: 24,
      viewBox: '0 0 24 24',
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: 2,
      strokeLinecap: 'round',
      strokeLinejoin: 'round',
      'aria-hidden': labelled ? undefined : true,
      className: cx('lucide', className),
      ...props,
    },
    node.map(([tag, attributes], index) => createElement(tag, { key: index, ...attributes })),
  );
}
