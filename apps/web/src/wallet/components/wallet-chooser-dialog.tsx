import { Wallet as WalletIcon, X } from 'lucide';
import { Dialog } from 'radix-ui';
import type { Connector } from 'wagmi';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Badge } from '#ui/badge.tsx';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { METAMASK_RDNS } from '../utils/order-connectors.ts';

/** Several wallets installed: the user picks one, MetaMask listed first (docs/product.md §6). */
export function WalletChooserDialog({
  open,
  onOpenChange,
  connectors,
  onChoose,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  connectors: readonly Connector[];
  onChoose: (connector: Connector) => void;
}) {
  useNamespace('walletParts');
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
        <Dialog.Content className="fixed inset-x-4 top-1/2 z-50 mx-auto max-w-sm -translate-y-1/2 rounded-xl border border-line bg-surface p-5 shadow-2xl">
          <div className="mb-1 flex items-center justify-between gap-4">
            <Dialog.Title className="text-lg font-bold">{t('walletChooser.title')}</Dialog.Title>
            <Dialog.Close asChild>
              <Button
                variant="ghost"
                size="icon"
                aria-label={t('walletChooser.cancel')}
                className="-mr-2 size-9"
              >
                <Icon node={X} aria-hidden="true" className="size-5" />
              </Button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="mb-4 text-sm text-muted">
            {t('walletChooser.description')}
          </Dialog.Description>
          <ul className="flex flex-col gap-2">
            {connectors.map((connector) => (
              <li key={connector.uid}>
                <button
                  type="button"
                  onClick={() => onChoose(connector)}
                  className="flex w-full cursor-pointer items-center gap-3 rounded-lg border border-line bg-surface-2 px-4 py-3 text-left font-semibold hover:border-brand"
                >
                  {connector.icon ? (
                    <img src={connector.icon} alt="" className="size-7 rounded-md" />
                  ) : (
                    <Icon node={WalletIcon} aria-hidden="true" className="size-7 text-muted" />
                  )}
                  <span className="flex-1">{connector.name}</span>
                  {connector.id === METAMASK_RDNS && (
                    <Badge tone="brand">{t('walletChooser.recommended')}</Badge>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
