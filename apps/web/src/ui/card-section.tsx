import type { ReactNode } from 'react';
import { Card } from './card.tsx';
import { Icon, type IconNode } from './icon.tsx';

/**
 * A card that is one section of the page, headed by an icon and `title`; the title also names the
 * section for assistive technology. `className` sets the card's padding (and text size).
 */
export function CardSection({
  title,
  icon,
  className = 'p-4 sm:p-5',
  children,
}: {
  title: string;
  icon: IconNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <section aria-label={title} className="flex flex-col gap-3">
        <h2 className="flex items-center gap-2 text-sm font-semibold text-muted">
          <Icon node={icon} aria-hidden="true" className="size-4 text-brand" />
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}
