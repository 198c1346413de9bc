import { X } from 'lucide';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { cx } from '#lib/cx.ts';
import { Button } from './button.tsx';
import { Icon } from './icon.tsx';

const PLACEMENT = {
  // A bottom sheet on phones (one thumb), centred from sm up.
  sheet: 'inset-x-3 bottom-3 max-w-md sm:top-1/2 sm:bottom-auto sm:-translate-y-1/2',
  // A long form: nearly full height, scrolling inside.
  tall: 'inset-x-3 top-3 bottom-3 flex max-w-lg flex-col overflow-y-auto sm:top-10 sm:bottom-10',
} as const;

/** A Radix dialog with our frame: title, close button, focus trapped, Escape closes. */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  descriptionHidden = false,
  closeLabel,
  closeDisabled = false,
  placement = 'sheet',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  descriptionHidden?: boolean;
  closeLabel: string;
  /** While something must finish (a payment in flight), the dialog cannot be dismissed. */
  closeDisabled?: boolean;
  placement?: keyof typeof PLACEMENT;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !closeDisabled && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content
          className={cx(
            'fixed z-50 mx-auto rounded-xl border border-line bg-surface p-5 shadow-2xl',
            PLACEMENT[placement],
          )}
        >
          <div className="mb-1 flex items-center justify-between gap-4">
            <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button
                variant="ghost"
                size="icon"
                aria-label={closeLabel}
                disabled={closeDisabled}
                className="-mr-2 size-10"
              >
                <Icon node={X} aria-hidden="true" className="size-5" />
              </Button>
            </Dialog.Close>
          </div>
          <Dialog.Description className={descriptionHidden ? 'sr-only' : 'mb-4 text-sm text-muted'}>
            {description}
          </Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
